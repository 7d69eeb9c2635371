package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestEditDiffInToolEnd: an edit's ToolEnd carries its unified diff for
// the front-ends, the model's tool message does not; an edit by each of
// two tasks side by side carries its own diff in its Subagent event (the
// parallel-task seam, issue 35 §1).
func TestEditDiffInToolEnd(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveNone; c.Headless = true })
	h.ag.SetMode(agent.ModeAuto)
	for _, f := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(h.dir, f), []byte("old "+f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit := func(f string) providertest.Reply {
		return calls(call("edit_file", `{"path":"`+f+`","old_string":"old","new_string":"new"}`))
	}
	scriptedTasks(h, calls(taskCall(1, ""), taskCall(2, "")), map[string][]func() providertest.Reply{
		"1": {reply(edit("a.txt"))},
		"2": {reply(edit("b.txt"))},
	})
	evs := h.run("PARENT: two edits")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	diffs := map[string]string{}
	for _, ev := range evs {
		sub, ok := ev.(agent.Subagent)
		if !ok {
			continue
		}
		if te, ok := sub.Event.(agent.ToolEnd); ok && te.Name == "edit_file" {
			diffs[sub.ParentID] = te.Diff
		}
	}
	if len(diffs) != 2 {
		t.Fatalf("edit ToolEnds with a diff under %d tasks, want 2: %v", len(diffs), diffs)
	}
	joined := ""
	for _, d := range diffs {
		joined += d
		if strings.Count(d, "\n+new ") != 1 {
			t.Errorf("a task's diff is not its own one edit:\n%s", d)
		}
	}
	for _, want := range []string{"-old a.txt\n+new a.txt", "-old b.txt\n+new b.txt"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the diffs lack %q:\n%s", want, joined)
		}
	}
	for _, r := range h.srv.Requests() {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "+new a.txt") || strings.Contains(m.Content, "+new b.txt") {
				t.Errorf("a diff reached the model: %q", m.Content)
			}
		}
	}
}
