package agent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider/providertest"
)

// withStore gives the harness a real checkpoint store (the workspace is a
// temporary directory, not a git repository).
func withStore(t *testing.T) func(*agent.Config) {
	return func(c *agent.Config) {
		s, err := checkpoint.Open(context.Background(), filepath.Join(t.TempDir(), "cp"), c.Workspace)
		if err != nil {
			t.Fatal(err)
		}
		c.Checkpoints = s
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

// TestMessageUndoPointWithoutPlan: a model that never makes a todo list
// still changes nothing that cannot be taken back: every user message is
// an undo point, in a directory that is not a git repository.
func TestMessageUndoPointWithoutPlan(t *testing.T) {
	h := newHarness(t, withStore(t))
	if _, err := os.Stat(filepath.Join(h.dir, ".git")); err == nil {
		t.Fatal("the workspace should not be a git repository")
	}
	os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("original\n"), 0o644)
	h.srv.Enqueue(calls(call("write_file", `{"path":"a.txt","content":"edited\n"}`)),
		calls(call("write_file", `{"path":"new/b.txt","content":"b\n"}`)), providertest.Reply{Text: "done"})
	h.run("change a\nand add b")
	h.checkValid()
	if _, _, err := h.ag.Undo(context.Background(), ""); !errors.Is(err, agent.ErrNoUndo) {
		t.Errorf("undo by item with no item: %v, want ErrNoUndo", err)
	}
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 1 || pts[0].Kind != agent.PointTurn || pts[0].Text != "change a" || len(pts[0].Files) != 2 {
		t.Fatalf("points = %+v", pts)
	}
	res, err := h.ag.Rewind(context.Background(), pts[0].ID, agent.RewindFiles)
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, h.dir, "a.txt"); got != "original\n" || readFile(t, h.dir, "new/b.txt") != "<missing>" || len(res.Files) != 2 {
		t.Errorf("after rewinding the files: a.txt=%q, res=%+v", got, res)
	}
	if res.Dropped != 0 || len(h.ag.History()) == 0 {
		t.Errorf("a files-only rewind dropped messages: %+v", res)
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	h.run("what now?")
	reqs := h.srv.Requests()
	sent := dump(reqs[len(reqs)-1].Messages)
	if !strings.Contains(sent, "rewound the files") || !strings.Contains(sent, "a.txt (old content)") || !strings.Contains(sent, "new/b.txt (deleted") {
		t.Errorf("the model was not told what was restored:\n%s", sent)
	}
	h.checkValid()
}

// slowStore holds every Save until release is closed.
type slowStore struct {
	*checkpoint.Store
	release chan struct{}
	saves   atomic.Int32
}

func (s *slowStore) Save(ctx context.Context, label string) (checkpoint.Checkpoint, error) {
	select {
	case <-s.release:
	case <-ctx.Done():
		return checkpoint.Checkpoint{}, ctx.Err()
	}
	s.saves.Add(1)
	return s.Store.Save(ctx, label)
}

// TestMessageSnapshotOffInputPath: the prompt goes to the model while the
// snapshot of the message is still being taken, and the first change
// waits for it, so the point holds the files as they were.
func TestMessageSnapshotOffInputPath(t *testing.T) {
	slow := &slowStore{release: make(chan struct{})}
	h := newHarness(t, func(c *agent.Config) {
		s, err := checkpoint.Open(context.Background(), filepath.Join(t.TempDir(), "cp"), c.Workspace)
		if err != nil {
			t.Fatal(err)
		}
		slow.Store, c.Checkpoints = s, slow
	})
	os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("original\n"), 0o644)
	h.srv.Enqueue(calls(call("write_file", `{"path":"a.txt","content":"edited\n"}`)), providertest.Reply{Text: "done"})
	ch := h.ag.Run(context.Background(), "edit a")
	for len(h.srv.Requests()) == 0 { // the prompt is sent while Save is held
		time.Sleep(5 * time.Millisecond)
	}
	if slow.saves.Load() != 0 || readFile(t, h.dir, "a.txt") != "original\n" {
		t.Fatal("the change ran before the message's snapshot")
	}
	close(slow.release)
	drain(ch)
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil || len(pts) != 1 || len(pts[0].Files) != 1 {
		t.Fatalf("points = %+v, %v", pts, err)
	}
	if _, err := h.ag.Rewind(context.Background(), pts[0].ID, agent.RewindFiles); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, h.dir, "a.txt"); got != "original\n" {
		t.Errorf("a.txt = %q after the rewind", got)
	}
}

// TestRewindConversationAndBoth: rewinding the conversation drops what
// came after the point and keeps the history valid; both also restores
// the files; points are listed newest first, items too.
func TestRewindConversationAndBoth(t *testing.T) {
	h := newHarness(t, withStore(t))
	h.srv.Enqueue(calls(call("write_file", `{"path":"one.txt","content":"1\n"}`)), providertest.Reply{Text: "first done"})
	h.run("first task")
	n := len(h.ag.History())
	h.srv.Enqueue(
		calls(call("todo", `{"goal":"two","items":[{"id":"1","text":"Write two","status":"in_progress"}]}`)),
		calls(call("write_file", `{"path":"two.txt","content":"2\n"}`)),
		calls(call("todo", `{"goal":"two","items":[{"id":"1","text":"Write two","status":"completed"}]}`)),
		providertest.Reply{Text: "second done"})
	h.run("second task\nin two lines")
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	kinds := ""
	for _, p := range pts {
		kinds += string(p.Kind) + ":" + p.Text + ","
	}
	if kinds != "item:Write two,turn:second task,turn:first task," {
		t.Fatalf("points newest first = %s", kinds)
	}
	res, err := h.ag.Rewind(context.Background(), pts[1].ID, agent.RewindConversation)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.ag.History()) != n || res.Prompt != "second task\nin two lines" || res.Dropped == 0 || !h.ag.Todos().Empty() {
		t.Errorf("conversation rewind: history %d want %d, res %+v, todos %+v", len(h.ag.History()), n, res, h.ag.Todos())
	}
	if readFile(t, h.dir, "two.txt") != "2\n" {
		t.Error("a conversation-only rewind restored the files")
	}
	if shown := fmt.Sprint(res.History); !strings.Contains(shown, "first done") || strings.Contains(shown, "second") {
		t.Errorf("the rewound conversation to show = %s, want the first turn only", shown)
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	h.run("again")
	h.checkValid()
	reqs := h.srv.Requests()
	sent := dump(reqs[len(reqs)-1].Messages)
	if strings.Contains(sent, "second done") || !strings.Contains(sent, "The files were NOT restored") {
		t.Errorf("the rewound conversation:\n%s", sent)
	}
	pts, err = h.ag.RewindPoints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	first := pts[len(pts)-1]
	if _, err := h.ag.Rewind(context.Background(), first.ID, agent.RewindBoth); err != nil {
		t.Fatal(err)
	}
	if len(h.ag.History()) != 0 || readFile(t, h.dir, "one.txt") != "<missing>" || readFile(t, h.dir, "two.txt") != "<missing>" {
		t.Errorf("rewind both: history %d, files one=%q two=%q", len(h.ag.History()), readFile(t, h.dir, "one.txt"), readFile(t, h.dir, "two.txt"))
	}
}

// TestItemDiff: each item's files and diff, from its undo point to the
// next.
func TestItemDiff(t *testing.T) {
	h := newHarness(t, withStore(t))
	os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("original\n"), 0o644)
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"in_progress"},{"id":"2","text":"Add b","status":"pending"}]}`)),
		calls(call("write_file", `{"path":"a.txt","content":"edited\n"}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"completed"},{"id":"2","text":"Add b","status":"in_progress"}]}`)),
		calls(call("write_file", `{"path":"b.txt","content":"new\n"}`)),
		providertest.Reply{Text: "done"})
	h.run("edit a, add b")
	d, err := h.ag.ItemDiff(context.Background(), "#1")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != 1 || d.Files[0] != (checkpoint.Change{Kind: checkpoint.Changed, Path: "a.txt"}) || !strings.Contains(d.Patch, "+edited") {
		t.Errorf("diff of #1 = %+v", d)
	}
	d, err = h.ag.ItemDiff(context.Background(), "2")
	if err != nil || len(d.Files) != 1 || d.Files[0] != (checkpoint.Change{Kind: checkpoint.Created, Path: "b.txt"}) {
		t.Errorf("diff of #2 = %+v, %v", d, err)
	}
	if _, err := h.ag.ItemDiff(context.Background(), "9"); !errors.Is(err, agent.ErrNoUndo) {
		t.Errorf("diff of an item that never started: %v", err)
	}
}

// TestRewindConversationSaved: a resumed session sends the model the
// rewound conversation; the file keeps the full history.
func TestRewindConversationSaved(t *testing.T) {
	sessions := t.TempDir()
	var rec *session.Recorder
	h := newHarness(t, withStore(t), func(c *agent.Config) {
		rec = session.NewRecorder(sessions, c.Workspace, "test-model")
		c.Recorder = rec
	})
	h.srv.Enqueue(providertest.Reply{Text: "one"}, providertest.Reply{Text: "two"})
	h.run("first")
	h.run("second")
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil || len(pts) != 2 {
		t.Fatalf("points %+v, %v", pts, err)
	}
	if _, err := h.ag.Rewind(context.Background(), pts[0].ID, agent.RewindConversation); err != nil {
		t.Fatal(err)
	}
	kept := len(h.ag.History())
	infos, err := session.List(sessions, h.dir)
	if err != nil || len(infos) != 1 {
		t.Fatalf("sessions %+v, %v", infos, err)
	}
	ld, err := session.Load(infos[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.ModelHistory) != kept || kept != 2 || len(ld.History) != 4 {
		t.Errorf("loaded: model history %d (want %d = 2), full history %d (want 4)", len(ld.ModelHistory), kept, len(ld.History))
	}
	// A replay of the session shows the rewind as such, not as a compaction.
	var marks []agent.Compacted
	for _, ev := range agent.MarkRewinds(agent.Replay(ld.History, ld.CompactedAt...), ld.Summaries) {
		if c, ok := ev.(agent.Compacted); ok {
			marks = append(marks, c)
		}
	}
	if len(marks) != 1 || marks[0].Rewound != `the message "second"` {
		t.Errorf("the replay's marks = %+v, want one rewind to before the message \"second\"", marks)
	}
}

// TestClearPlanKeptInSession: the plan put aside is a todo line marked
// archived in the session file, and a resume starts without a plan.
func TestClearPlanKeptInSession(t *testing.T) {
	sessions := t.TempDir()
	h := newHarness(t, noReminder, func(c *agent.Config) {
		c.Recorder = session.NewRecorder(sessions, c.Workspace, "test-model")
	})
	h.srv.Enqueue(calls(call("todo", `{"goal":"Old","items":[{"id":"1","text":"Old step","status":"in_progress"}]}`)), providertest.Reply{Text: "later"})
	h.run("old work")
	if _, err := h.ag.ClearPlan(); err != nil {
		t.Fatal(err)
	}
	infos, err := session.List(sessions, h.dir)
	if err != nil || len(infos) != 1 {
		t.Fatalf("sessions %+v, %v", infos, err)
	}
	b, err := os.ReadFile(infos[0].Path)
	if err != nil || !strings.Contains(string(b), `"archived":true`) {
		t.Fatalf("no archived plan in the session file (%v):\n%s", err, b)
	}
	ld, err := session.Load(infos[0].Path)
	if err != nil || !ld.Todos.Empty() {
		t.Errorf("a resume would come back with the plan: %+v, %v", ld.Todos, err)
	}
}

// TestInterruptedBeforeSnapshot: an interrupt stops the message's
// snapshot before the turn ends; the point keeps its conversation, which
// can still be rewound, but not the files.
func TestInterruptedBeforeSnapshot(t *testing.T) {
	slow := &slowStore{release: make(chan struct{})}
	h := newHarness(t, func(c *agent.Config) {
		s, err := checkpoint.Open(context.Background(), filepath.Join(t.TempDir(), "cp"), c.Workspace)
		if err != nil {
			t.Fatal(err)
		}
		slow.Store, c.Checkpoints = s, slow
	})
	ctx, cancel := context.WithCancel(context.Background())
	h.srv.Enqueue(providertest.Reply{Text: "never mind"})
	ch := h.ag.Run(ctx, "do something")
	for len(h.srv.Requests()) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel() // the snapshot is still held: the interrupt must stop it
	drain(ch)
	if slow.saves.Load() != 0 {
		t.Fatal("the snapshot ran after the interrupt")
	}
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil || len(pts) != 1 || !pts[0].NoFiles {
		t.Fatalf("points = %+v, %v", pts, err)
	}
	if _, err := h.ag.Rewind(context.Background(), pts[0].ID, agent.RewindBoth); !errors.Is(err, agent.ErrNoUndo) {
		t.Errorf("rewinding files without a snapshot: %v, want ErrNoUndo", err)
	}
	if _, err := h.ag.Rewind(context.Background(), pts[0].ID, agent.RewindConversation); err != nil || len(h.ag.History()) != 0 {
		t.Errorf("conversation rewind: %v, history %d", err, len(h.ag.History()))
	}
	close(slow.release)
}
