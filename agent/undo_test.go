package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

func TestUndoByItem(t *testing.T) {
	var store *checkpoint.Store
	h := newHarness(t, func(c *agent.Config) {
		s, err := checkpoint.Open(context.Background(), filepath.Join(t.TempDir(), "cp"), c.Workspace)
		if err != nil {
			t.Fatal(err)
		}
		store, c.Checkpoints = s, s
	})
	_ = store
	os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("original\n"), 0o644)
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"in_progress"},{"id":"2","text":"Add b","status":"pending"}]}`)),
		calls(call("write_file", `{"path":"a.txt","content":"edited\n"}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"completed"},{"id":"2","text":"Add b","status":"in_progress"}]}`)),
		calls(call("write_file", `{"path":"b.txt","content":"new\n"}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"completed"},{"id":"2","text":"Add b","status":"completed"}]}`)),
		providertest.Reply{Text: "done"},
	)
	h.run("edit a, add b")
	h.checkValid()

	pre, err := h.ag.PreviewUndo(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if pre.Item != "2" || len(pre.Changes) != 1 || pre.Changes[0] != (checkpoint.Change{Kind: checkpoint.Created, Path: "b.txt"}) {
		t.Fatalf("preview of /undo = %+v", pre)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "b.txt")); err != nil {
		t.Fatal("the preview changed the workspace")
	}
	pre, evs, err := h.ag.Undo(context.Background(), "1")
	if err != nil {
		t.Fatal(err)
	}
	up, note := undoEvents(t, evs)
	if note.Text != "#1, #2 are pending again: their changes were taken back" {
		t.Errorf("notice = %q", note.Text)
	}
	if strings.Join(pre.Undone, ",") != "1,2" || len(pre.Changes) != 2 {
		t.Errorf("undo #1 = %+v", pre)
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "a.txt")); string(b) != "original\n" {
		t.Errorf("a.txt = %q after undo", b)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "b.txt")); err == nil {
		t.Error("b.txt survived the undo")
	}
	for _, it := range up.List.Items {
		if it.Status != todo.Pending || it.Note != "undone by the user" {
			t.Errorf("item %+v not marked undone", it)
		}
	}
	if _, _, err := h.ag.Undo(context.Background(), "1"); !errors.Is(err, agent.ErrNoUndo) {
		t.Errorf("a second undo of #1: %v, want ErrNoUndo", err)
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	h.run("what now?")
	reqs := h.srv.Requests()
	sent := dump(reqs[len(reqs)-1].Messages)
	if !strings.Contains(sent, "The user undid #1") || !strings.Contains(sent, "b.txt (deleted") || !strings.Contains(sent, "a.txt (old content)") {
		t.Errorf("the model was not told what was restored:\n%s", sent)
	}
}

// undoEvents returns the TodoUpdate and the Notice an undo caused, failing
// t unless there are exactly those two.
func undoEvents(t *testing.T, evs []agent.Event) (agent.TodoUpdate, agent.Notice) {
	t.Helper()
	var up *agent.TodoUpdate
	var note *agent.Notice
	for _, ev := range evs {
		switch ev := ev.(type) {
		case agent.TodoUpdate:
			up = &ev
		case agent.Notice:
			note = &ev
		}
	}
	if len(evs) != 2 || up == nil || note == nil {
		t.Fatalf("undo's events = %+v, want a TodoUpdate and a Notice", evs)
	}
	return *up, *note
}
