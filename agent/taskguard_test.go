package agent_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/permission"
	"github.com/tick-agent/tick/provider/providertest"
)

// scriptedTasks answers the parent with first, then "parent done"; the
// subagent "CHILD n" gets steps[n][k] for its k-th request (a func, so a
// step may wait for something to happen first), then "report n".
func scriptedTasks(h *harness, first providertest.Reply, steps map[string][]func() providertest.Reply) {
	h.srv.SetFunc(taskScript(first, steps))
}

// taskScript is scriptedTasks' reply function, for wrapping.
func taskScript(first providertest.Reply, steps map[string][]func() providertest.Reply) func(providertest.Request) providertest.Reply {
	return func(r providertest.Request) providertest.Reply {
		n, isChild := strings.CutPrefix(r.Messages[1].Content, "CHILD ")
		k := 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				k++
			}
		}
		switch {
		case isChild && k < len(steps[n]):
			return steps[n][k]()
		case isChild:
			return providertest.Reply{Text: "report " + n}
		case k == 0:
			return first
		}
		return providertest.Reply{Text: "parent done"}
	}
}

// reply returns a step that answers r at once.
func reply(r providertest.Reply) func() providertest.Reply {
	return func() providertest.Reply { return r }
}

// untilExists returns a step that waits (a bounded time: a minute, as a
// task's apply under -race on a loaded CI machine took longer than the
// 10 s it had, and TestUndoAfterRefusedPatch then saw task 2 finish first)
// for path to exist, then answers r.
func untilExists(path string, r providertest.Reply) func() providertest.Reply {
	return func() providertest.Reply {
		for range 2400 {
			if _, err := os.Lstat(path); err == nil {
				break
			}
			time.Sleep(25 * time.Millisecond)
		}
		return r
	}
}

// childResults returns the tool results subagent "CHILD n" was sent.
func childResults(h *harness, n string) []string {
	var out []string
	for _, r := range h.srv.Requests() {
		if r.Messages[1].Content != "CHILD "+n {
			continue
		}
		out = out[:0]
		for _, m := range r.Messages {
			if m.Role == "tool" {
				out = append(out, m.Content)
			}
		}
	}
	return out
}

// keptCopy returns the directory of the copy a result says is kept.
func keptCopy(t *testing.T, result string) string {
	t.Helper()
	m := regexp.MustCompile(`kept at (\S+?)[;.( ]`).FindStringSubmatch(result)
	if m == nil {
		t.Fatalf("result %q names no kept copy", result)
	}
	return m[1]
}

// gitInit makes dir a git repository.
func gitInit(t *testing.T, dir string) {
	t.Helper()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
}

// TestTaskMergeThroughLinkIntoGit: two tasks side by side; task 1 leaves
// d -> .git, task 2 (its copy made before) writes d/hooks/pre-commit and
// d/hooks/post-index-change. Merging task 2 after task 1 must not put
// them into the real .git/hooks: the user's git status runs nothing, the
// result names the refused patch, and task 2's copy is kept. Headless
// with --yolo (-p's seam): the user is told in a notice.
func TestTaskMergeThroughLinkIntoGit(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) { c.Headless = true })
	gitInit(t, h.dir)
	marker := filepath.Join(t.TempDir(), "ran")
	hooks := `mkdir -p d/hooks && for h in pre-commit post-index-change; do printf '#!/bin/sh\ntouch ` + marker + `\n' > d/hooks/$h; chmod 755 d/hooks/$h; done`
	scriptedTasks(h, calls(taskCall(1, ""), taskCall(2, "")), map[string][]func() providertest.Reply{
		"1": {reply(calls(bashCall(t, `ln -s .git d`)))},
		"2": {
			func() providertest.Reply { h.srv.WaitOpen(2, 5*time.Second); return calls(bashCall(t, hooks)) },
			untilExists(filepath.Join(h.dir, "d"), providertest.Reply{Text: "report 2"}),
		},
	})
	evs := h.run("PARENT: two tasks")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	for _, hook := range []string{"pre-commit", "post-index-change"} {
		if _, err := os.Lstat(filepath.Join(h.dir, ".git", "hooks", hook)); err == nil {
			t.Errorf("the task's patch wrote .git/hooks/%s", hook)
		}
	}
	if userGitStatus(t, h.dir, marker) {
		t.Fatal("the user's git status ran a hook a task wrote")
	}
	res := toolResults(h)
	if len(res) != 2 || !strings.Contains(res[1].Content, "tick refused the whole patch: d/hooks/post-index-change") {
		t.Fatalf("task 2's result = %+v, want the refused patch named", res)
	}
	kept := keptCopy(t, res[1].Content)
	if _, err := os.Stat(filepath.Join(kept, "d", "hooks", "pre-commit")); err != nil {
		t.Errorf("task 2's copy was not kept: %v", err)
	}
	if !hasNotice(evs, "tick refused the whole patch") {
		t.Error("the user was not told of the refused patch")
	}
}

// TestTaskWriteThroughLinkInCopy: in a task's copy, write_file gf where
// gf -> .git must count as a write into .git (resolved in the copy, not
// the workspace, where gf does not exist): asked every time, so refused
// in -p even with --yolo; the copy's .git file stays as it was.
func TestTaskWriteThroughLinkInCopy(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) { c.Headless = true })
	gitInit(t, h.dir)
	scriptedTasks(h, calls(taskCall(1, "")), map[string][]func() providertest.Reply{
		"1": {
			reply(calls(bashCall(t, `ln -s .git gf && cat .git > gitfile.txt && pwd > where.txt`))),
			reply(calls(call("write_file", `{"path":"gf","content":"gitdir: /tmp/evil\n"}`))),
		},
	})
	evs := h.run("PARENT: one task")
	end(t, evs)
	h.checkValid()
	res := childResults(h, "1")
	if len(res) != 2 || strings.Contains(res[1], "Overwrote") || !strings.Contains(res[1], "Error") {
		t.Fatalf("the task's results = %q, want write_file gf refused as a write into .git", res)
	}
	before, _ := os.ReadFile(filepath.Join(h.dir, "gitfile.txt"))
	if !strings.HasPrefix(string(before), "gitdir: "+h.dir) {
		t.Errorf("the copy's .git read %q, want the gitfile naming the workspace's repository", before)
	}
}

// TestTaskDenyRuleInCopy: a deny rule on a path is matched against the
// copy's own path: write_file through a link in the copy to a denied file
// is denied.
func TestTaskDenyRuleInCopy(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) {
		c.Headless = true
		c.Rules = denyRules(t, "write_file(secret/*)")
	})
	if err := os.MkdirAll(filepath.Join(h.dir, "secret"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		if err := os.WriteFile(filepath.Join(h.dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("secret/key", "k")
	scriptedTasks(h, calls(taskCall(1, "")), map[string][]func() providertest.Reply{
		"1": {
			reply(calls(bashCall(t, `ln -s secret/key sk`))),
			reply(calls(call("write_file", `{"path":"sk","content":"changed"}`))),
		},
	})
	end(t, h.run("PARENT: one task"))
	res := childResults(h, "1")
	if len(res) != 2 || !strings.Contains(res[1], "deny rule") {
		t.Fatalf("the task's results = %q, want write_file sk denied by the rule on secret/*", res)
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "secret", "key")); string(b) != "k" {
		t.Errorf("secret/key = %q", b)
	}
}

// denyRules parses deny rules.
func denyRules(t *testing.T, deny ...string) permission.Rules {
	t.Helper()
	rs, err := permission.ParseRules(nil, deny)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestUndoAfterRefusedPatch: a seam of the refused patch and undo. Tasks
// on two plan items: item 1's leaves d -> .git and a.txt; item 2's patch
// (b.txt, d/hooks/pre-commit) is refused. Undoing item 2 changes nothing
// of item 1's; undoing item 1 then takes a.txt and the link away; no
// hook ever lands in .git/hooks.
func TestUndoAfterRefusedPatch(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) {
		s, err := checkpoint.Open(context.Background(), filepath.Join(t.TempDir(), "cp"), c.Workspace)
		if err != nil {
			t.Fatal(err)
		}
		c.Checkpoints = s
	})
	gitInit(t, h.dir)
	steps := map[string][]func() providertest.Reply{
		"1": {reply(calls(bashCall(t, `ln -s .git d && echo one > a.txt`)))},
		"2": {
			func() providertest.Reply {
				h.srv.WaitOpen(2, 5*time.Second)
				return calls(bashCall(t, `mkdir -p d/hooks && echo 'touch x' > d/hooks/pre-commit && echo two > b.txt`))
			},
			untilExists(filepath.Join(h.dir, "d"), providertest.Reply{Text: "report 2"}),
		},
	}
	child := taskScript(providertest.Reply{}, steps)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			return child(r)
		}
		switch assistants(r) {
		case 0:
			return calls(call("todo", `{"items":[{"id":"1","text":"A","status":"pending"},{"id":"2","text":"B","status":"pending"}]}`))
		case 1:
			return calls(taskCall(1, `,"item":"1"`), taskCall(2, `,"item":"2"`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	h.run("PARENT: plan, then two tasks")
	h.checkValid()
	hook := filepath.Join(h.dir, ".git", "hooks", "pre-commit")
	if res := toolResults(h); len(res) != 3 || !strings.Contains(res[2].Content, "tick refused the whole patch") {
		t.Fatalf("results %+v: want task 2's patch refused", res)
	}
	if _, _, err := h.ag.Undo(context.Background(), "2"); err != nil {
		t.Fatalf("undo #2 after its refused patch: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(h.dir, "a.txt")); err != nil || string(b) != "one\n" {
		t.Errorf("undoing #2 changed item 1's a.txt: %q, %v", b, err)
	}
	if _, _, err := h.ag.Undo(context.Background(), "1"); err != nil {
		t.Fatalf("undo #1: %v", err)
	}
	for _, p := range []string{"a.txt", "d", "b.txt"} {
		if _, err := os.Lstat(filepath.Join(h.dir, p)); err == nil {
			t.Errorf("%s survived the undo of both items", p)
		}
	}
	if _, err := os.Lstat(hook); err == nil {
		t.Error("a hook landed in .git/hooks")
	}
}

// assistants counts the assistant messages of a request.
func assistants(r providertest.Request) int {
	n := 0
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	return n
}
