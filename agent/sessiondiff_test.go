package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestSessionDiff: /diff's data (before the first message: nothing has
// changed, not "nothing to undo"): the whole run, since message N, since
// item #N; after /undo of the second item its file leaves the diff (the
// undo seam); a bad or unknown point is an error naming it.
func TestSessionDiff(t *testing.T) {
	h := newHarness(t, withStore(t)) // a plain directory: no git repository
	if _, err := h.ag.SessionDiff(context.Background(), ""); !errors.Is(err, agent.ErrNoUndo) || !strings.Contains(err.Error(), "nothing has changed yet") {
		t.Errorf("/diff before the first message: %v; want that nothing has changed yet", err)
	}
	os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("original\n"), 0o644)
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"in_progress"},{"id":"2","text":"Add b","status":"pending"}]}`)),
		calls(call("write_file", `{"path":"a.txt","content":"edited\n"}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"completed"},{"id":"2","text":"Add b","status":"in_progress"}]}`)),
		calls(call("write_file", `{"path":"b.txt","content":"new\n"}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"completed"},{"id":"2","text":"Add b","status":"completed"}]}`)),
		providertest.Reply{Text: "done"},
		calls(call("write_file", `{"path":"c.txt","content":"third\n"}`)),
		providertest.Reply{Text: "done too"})
	h.run("edit a, add b")
	h.run("add c")
	ctx := context.Background()
	paths := func(since string) string {
		t.Helper()
		d, err := h.ag.SessionDiff(ctx, since)
		if err != nil {
			t.Fatalf("SessionDiff(%q): %v", since, err)
		}
		var ps []string
		for _, f := range d.Files {
			ps = append(ps, string(f.Kind)+" "+f.Path)
		}
		return strings.Join(ps, ", ")
	}
	if got := paths(""); !strings.Contains(got, "a.txt") || !strings.Contains(got, "b.txt") || !strings.Contains(got, "c.txt") {
		t.Errorf("the session's diff: %s", got)
	}
	if got := paths("2"); strings.Contains(got, "a.txt") || !strings.Contains(got, "c.txt") {
		t.Errorf("since message 2: %s", got)
	}
	if got := paths("#2"); strings.Contains(got, "a.txt") || !strings.Contains(got, "b.txt") {
		t.Errorf("since item #2: %s", got)
	}
	d, _ := h.ag.SessionDiff(ctx, "")
	if !strings.Contains(d.Patch, "-original") || !strings.Contains(d.Patch, "+edited") {
		t.Errorf("the session's patch lacks a.txt's hunk:\n%s", d.Patch)
	}
	if _, _, err := h.ag.Undo(ctx, "2"); err != nil {
		t.Fatal(err)
	}
	if got := paths(""); strings.Contains(got, "b.txt") || !strings.Contains(got, "a.txt") {
		t.Errorf("after /undo of #2, the session's diff: %s", got)
	}
	for _, bad := range []string{"#9", "7", "x"} {
		if _, err := h.ag.SessionDiff(ctx, bad); err == nil || (bad != "x" && !errors.Is(err, agent.ErrNoUndo)) {
			t.Errorf("SessionDiff(%q): %v", bad, err)
		}
	}
	if _, err := os.Stat(filepath.Join(h.dir, ".git")); err == nil {
		t.Fatal("the workspace is a repository; this test is of one without git")
	}
}
