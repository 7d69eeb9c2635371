package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestVerifyInTheSandboxGitGuard: the check runs sandboxed like the
// model's commands: a check that writes a git hook is refused (.git is
// read-only to commands), nothing lands in .git, and the run ends
// verify_failed (exit 4), not as a command the sandbox blocked.
func TestVerifyInTheSandboxGitGuard(t *testing.T) {
	srv := providertest.New(t)
	final := providertest.Reply{Text: "Done."}
	srv.Enqueue(final, final, final)
	args, ws := headless(t, srv, "go", "--yolo", "--output-format", "json", "--verify", "echo 'exit 0' > .git/hooks/pre-commit")
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	r := tick(t, nil, "", args...)
	obj := resultOf(t, r)
	if r.code != app.ExitUnfinished || obj["exit_reason"] != "verify_failed" {
		t.Fatalf("exit %d, reason %v; want 4, verify_failed\nstderr:\n%s", r.code, obj["exit_reason"], r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git", "hooks", "pre-commit")); err == nil {
		t.Fatal("the verify check wrote a git hook")
	}
}

// TestVerifyAfterParallelTasks: the check runs once the parallel tasks'
// copies are merged back, in the workspace: it sees both tasks' files and
// passes on the first attempt.
func TestVerifyAfterParallelTasks(t *testing.T) {
	srv := providertest.New(t)
	srv.SetFunc(func(req providertest.Request) providertest.Reply {
		first, last := "", req.Messages[len(req.Messages)-1]
		for _, m := range req.Messages {
			if m.Role == "user" {
				first = m.Content
				break
			}
		}
		switch {
		case strings.HasPrefix(first, "make ") && last.Role == "user":
			return call("bash", map[string]any{"command": "touch " + strings.TrimPrefix(first, "make ")})
		case strings.HasPrefix(first, "make "):
			return providertest.Reply{Text: "made it"}
		case last.Role == "user" && !strings.Contains(last.Content, "verify"):
			var cs []providertest.Call
			for _, f := range []string{"a.txt", "b.txt"} {
				b, _ := json.Marshal(map[string]any{"description": "make " + f, "prompt": "make " + f})
				cs = append(cs, providertest.Call{Name: "task", Args: string(b)})
			}
			return providertest.Reply{ToolCalls: cs}
		}
		return providertest.Reply{Text: "Both made."}
	})
	args, ws := headless(t, srv, "build both", "--yolo", "--output-format", "json", "--verify", "test -f a.txt && test -f b.txt")
	r := tick(t, nil, "", args...)
	obj := resultOf(t, r)
	v, _ := obj["verify"].(map[string]any)
	if r.code != app.ExitOK || v["passed"] != true || v["attempts"] != 1.0 {
		t.Fatalf("exit %d, verify %v\nstderr:\n%s", r.code, v, r.stderr)
	}
	for _, f := range []string{"a.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(ws, f)); err != nil {
			t.Errorf("%s was not merged: %v", f, err)
		}
	}
}

// TestFilesChangedInResult: the result lists the files the run added,
// modified and deleted, whichever tool did it (a command included), and
// not a file changed and then put back (undone) within the run.
func TestFilesChangedInResult(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		call("bash", map[string]any{"command": "echo new > added.txt; echo more >> kept.txt; rm gone.txt; cp -p same.txt same.bak && echo tmp >> same.txt && mv same.bak same.txt"}),
		providertest.Reply{Text: "Changed."})
	args, ws := headless(t, srv, "change things", "--yolo", "--output-format", "json")
	for _, f := range []string{"kept.txt", "gone.txt", "same.txt"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte(f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	obj := resultOf(t, tick(t, nil, "", args...))
	got := map[string]string{}
	list, _ := obj["files_changed"].([]any)
	for _, c := range list {
		m := c.(map[string]any)
		got[m["path"].(string)] = m["kind"].(string)
	}
	want := map[string]string{"added.txt": "added", "kept.txt": "modified", "gone.txt": "deleted"}
	if len(got) != len(want) {
		t.Errorf("files_changed = %v, want %v", got, want)
	}
	for p, k := range want {
		if got[p] != k {
			t.Errorf("files_changed[%s] = %q, want %q (all: %v)", p, got[p], k, got)
		}
	}
}
