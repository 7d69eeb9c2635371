package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/workcopy"
	"github.com/tick-agent/tick/provider/providertest"
)

// tooLargeToCopy makes dir a workspace tasks work in place in: a sparse
// file past workcopy.MaxBytes (it costs no disk).
func tooLargeToCopy(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(workcopy.MaxBytes + 1); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestTasksInPlaceGitGuard: two tasks in the workspace itself (too large
// to copy), side by side. Task 1's command plants a repository whose
// config runs a command on git status, then waits until task 2's command
// has started: task 2's "before" scan runs after the plant. The planted
// repository must still be caught as task 1's doing and removed (-p), not
// taken for task 2's baseline and kept.
func TestTasksInPlaceGitGuard(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveNone; c.Headless = true }, withSandbox(t))
	h.ag.SetMode(agent.ModeAuto)
	tooLargeToCopy(t, h.dir)
	marker := filepath.Join(t.TempDir(), "ran")
	plant := `git init -q p && git -C p config core.fsmonitor 'touch ` + marker + `' && touch planted && for i in $(seq 400); do [ -e ydone ] && break; sleep 0.025; done`
	scriptedTasks(h, calls(taskCall(1, ""), taskCall(2, "")), map[string][]func() providertest.Reply{
		"1": {reply(calls(bashCall(t, plant)))},
		"2": {untilExists(filepath.Join(h.dir, "planted"), calls(bashCall(t, `touch ydone`)))},
	})
	evs := h.run("PARENT: two tasks in place")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if !hasNotice(evs, "a task works in the workspace itself") {
		t.Fatal("the tasks did not work in place")
	}
	if _, err := os.Stat(filepath.Join(h.dir, "ydone")); err != nil {
		t.Fatalf("task 2's command did not run: %v", err)
	}
	if userGitStatus(t, filepath.Join(h.dir, "p"), marker) {
		t.Fatal("the user's git status ran the command a task in place planted")
	}
	if res := childResults(h, "1"); len(res) != 1 || !strings.Contains(res[0], "tick removed the git metadata this command created (p/.git)") {
		t.Errorf("task 1's result = %q, want the removal of p/.git told", res)
	}
}

// TestPlantedGitInCopy: the guard runs in a task's copy too (its own
// runner's before and after): a repository a sandboxed command plants in
// the copy is removed there (-p), and the model told. A copy kept after a
// conflict has the git metadata planted by other means (a command
// outside the watch) moved aside before the user is pointed at it.
func TestPlantedGitInCopy(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveNone; c.Headless = true }, withSandbox(t))
	h.ag.SetMode(agent.ModeAuto)
	gitInit(t, h.dir)
	if err := os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	plant := `git init -q sub && git -C sub config core.fsmonitor 'touch ` + marker + `' && echo mine > a.txt`
	scriptedTasks(h, calls(taskCall(1, "")), map[string][]func() providertest.Reply{
		"1": {
			reply(calls(bashCall(t, plant))),
			func() providertest.Reply { // the user edits a.txt meanwhile: a conflict keeps the copy
				_ = os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("user"), 0o644)
				return calls(bashCall(t, "true"))
			},
		},
	})
	end(t, h.run("PARENT: one task"))
	h.checkValid()
	res := childResults(h, "1")
	if len(res) == 0 || !strings.Contains(res[0], "tick removed the git metadata this command created (sub/.git)") {
		t.Errorf("the task's results = %q, want the planted sub/.git removed and told", res)
	}
	parent := toolResults(h)
	if len(parent) != 1 {
		t.Fatalf("parent's tool results = %+v", parent)
	}
	kept := keptCopy(t, parent[0].Content)
	if userGitStatus(t, filepath.Join(kept, "sub"), marker) {
		t.Error("git status in the kept copy ran the command the task planted")
	}
}

// TestKeptCopyScanned: without a sandbox nothing watches a task's
// commands; a copy kept after a conflict still has the repository its
// command planted moved aside before the result points the user at it.
func TestKeptCopyScanned(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t)
	gitInit(t, h.dir)
	if err := os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	plant := `git init -q sub && git -C sub config core.fsmonitor 'touch ` + marker + `' && echo mine > a.txt`
	scriptedTasks(h, calls(taskCall(1, "")), map[string][]func() providertest.Reply{
		"1": {
			reply(calls(bashCall(t, plant))),
			func() providertest.Reply {
				_ = os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("user"), 0o644)
				return providertest.Reply{Text: "report 1"}
			},
		},
	})
	evs := h.run("PARENT: one task")
	end(t, evs)
	parent := toolResults(h)
	if len(parent) != 1 || !strings.Contains(parent[0].Content, "tick moved aside the git metadata planted in it") {
		t.Fatalf("parent's tool results = %+v, want the planted metadata moved aside and said", parent)
	}
	kept := keptCopy(t, parent[0].Content)
	if userGitStatus(t, filepath.Join(kept, "sub"), marker) {
		t.Error("git status in the kept copy ran the command the task planted")
	}
	if !hasNotice(evs, "tick moved aside the git metadata planted in it") {
		t.Error("the user was not told")
	}
}
