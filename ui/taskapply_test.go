package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/ui/dialog"
)

// keptAgent is a scriptAgent with one task kept for a conflict: it
// records the applies asked.
type keptAgent struct {
	*scriptAgent
	applied []int
}

func (k *keptAgent) KeptTasks() []agent.KeptTask {
	return []agent.KeptTask{{N: 1, Desc: "fix the parser", Dir: "/tmp/tick-task-1", Applied: len(k.applied) > 0}}
}

func (k *keptAgent) TaskPatch(n int) (agent.ItemChanges, error) {
	return agent.ItemChanges{Text: `task 1 "fix the parser"`, Files: []checkpoint.Change{{Kind: checkpoint.Changed, Path: "a.txt"}},
		Patch: "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n 1\n-5\n+five from the task\n"}, nil
}

func (k *keptAgent) ApplyTask(_ context.Context, n int) ([]agent.Event, error) {
	k.applied = append(k.applied, n)
	return []agent.Event{agent.Notice{Text: `task 1 "fix the parser": conflicts marked in a.txt (1) · /undo takes it back`}}, nil
}

// keptNotice is the notice of a task kept for a conflict.
var keptNotice = agent.Notice{Text: `the task "fix the parser" changed files that changed in the workspace meanwhile (a.txt): none of its changes were applied`, KeptCopy: "/tmp/tick-task-1", KeptTask: 1}

// newKeptModel is a model on a keptAgent with a hand-moved clock, a turn
// running.
func newKeptModel(t *testing.T) (*Model, *keptAgent, *fakeClock) {
	t.Helper()
	ka := &keptAgent{scriptAgent: &scriptAgent{}}
	mv := New(Config{Agent: ka, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test"})
	m := &mv
	c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	m.clock = c.now
	update(m, tea.WindowSizeMsg{Width: 110, Height: 32})
	submit(m, "do it with two tasks")
	return m, ka, c
}

// runAll runs cmd and feeds its messages back, one level deep.
func runAll(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			runAll(m, c)
		}
	case nil:
	default:
		update(m, msg)
	}
}

// TestKeptTaskOffer: the notice of a kept task opens an offer naming its
// keys; p (after a pause) shows its patch through the /diff dialog's
// renderer, esc goes back to the offer, a applies it and its notice
// shows.
func TestKeptTaskOffer(t *testing.T) {
	m, ka, c := newKeptModel(t)
	events(t, m, keptNotice)
	s := screen(m)
	if overlayOf[*dialog.Kept](m) == nil || !strings.Contains(s, "p show its patch") || !strings.Contains(s, "a apply it over the current files") {
		t.Fatalf("the kept task's notice offers no keys:\n%s", s)
	}
	c.advance(time.Second)
	update(m, tea.KeyPressMsg{Code: 'p', Text: "p"})
	runAll(m, settle(m))
	s = screen(m)
	if overlayOf[*dialog.Diff](m) == nil || !strings.Contains(s, "The patch of task 1") || !strings.Contains(s, "a.txt") {
		t.Fatalf("p did not show the patch:\n%s", s)
	}
	press(m, "enter")
	if s = screen(m); !strings.Contains(s, "five from the task") {
		t.Errorf("the patch's hunks do not show:\n%s", s)
	}
	press(m, "esc")
	press(m, "esc")
	if overlayOf[*dialog.Diff](m) != nil || overlayOf[*dialog.Kept](m) == nil {
		t.Fatal("esc from the patch did not go back to the offer")
	}
	c.advance(time.Second)
	update(m, tea.KeyPressMsg{Code: 'a', Text: "a"})
	runAll(m, settle(m))
	if len(ka.applied) != 1 || overlayOf[*dialog.Kept](m) != nil {
		t.Fatalf("a deliberate a: applied %v, offer open %v", ka.applied, overlayOf[*dialog.Kept](m) != nil)
	}
	if s = screen(m); !strings.Contains(s, "conflicts marked in a.txt") {
		t.Errorf("what the apply did is not shown:\n%s", s)
	}
	if m.input.Raw() != "" {
		t.Errorf("the answer keys went to the input too: %q", m.input.Raw())
	}
}

// TestKeptTaskOfferIgnoresTyping: the offer opens while the user types
// "apply patch now": nothing is applied or opened, the keys go to the
// input; esc closes it and says how to apply it later.
func TestKeptTaskOfferIgnoresTyping(t *testing.T) {
	m, ka, c := newKeptModel(t)
	typeText(m, "ap")
	events(t, m, keptNotice)
	for _, r := range "ply patch now" {
		c.advance(80 * time.Millisecond)
		runAll(m, update(m, tea.KeyPressMsg{Code: r, Text: string(r)}))
	}
	runAll(m, settle(m))
	if len(ka.applied) != 0 || overlayOf[*dialog.Diff](m) != nil {
		t.Fatalf("typing answered the offer: applied %v, patch open %v", ka.applied, overlayOf[*dialog.Diff](m) != nil)
	}
	if got := m.input.Raw(); got != "apply patch now" {
		t.Errorf("the input holds %q, want the typed text", got)
	}
	press(m, "esc")
	if overlayOf[*dialog.Kept](m) != nil || !strings.Contains(screen(m), "/tasks apply 1 applies it") {
		t.Errorf("esc did not close the offer saying how to apply it later:\n%s", screen(m))
	}
}

// TestKeptTaskOfferUnderApproval: the notice comes while an approval is
// open: the approval stays on top and its "a" (allow for the session)
// answers it, not the offer; nothing is applied.
func TestKeptTaskOfferUnderApproval(t *testing.T) {
	m, ka, c := newKeptModel(t)
	reply := make(chan agent.Approval, 1)
	events(t, m, agent.ToolStart{ID: "9", Name: "bash", Summary: "ls"}, agent.ApprovalRequest{ID: "9", Tool: "bash", Summary: "ls", Detail: "ls", Reply: reply})
	events(t, m, keptNotice)
	c.advance(time.Second)
	update(m, tea.KeyPressMsg{Code: 'a', Text: "a"})
	runAll(m, settle(m))
	if len(ka.applied) != 0 {
		t.Fatal("the a meant for the approval applied the kept task")
	}
	select {
	case r := <-reply:
		if !r.Allow || !r.Always {
			t.Errorf("the approval got %+v, want allow for the session", r)
		}
	default:
		t.Error("the approval got no answer")
	}
	if overlayOf[*dialog.Kept](m) == nil {
		t.Error("the offer under the approval was closed")
	}
}

// TestTasksCommand: /tasks lists the kept tasks, /tasks patch 1 shows the
// patch, /tasks apply 1 applies it (and closes its offer), a bad
// argument says how to use it.
func TestTasksCommand(t *testing.T) {
	m, ka, _ := newKeptModel(t)
	events(t, m, keptNotice)
	update(m, tea.KeyPressMsg{Code: tea.KeyEscape})
	runAll(m, submit(m, "/tasks"))
	if s := screen(m); !strings.Contains(s, "1  fix the parser  not applied") {
		t.Errorf("/tasks does not list the kept task:\n%s", s)
	}
	runAll(m, submit(m, "/tasks patch 1"))
	if overlayOf[*dialog.Diff](m) == nil {
		t.Fatal("/tasks patch 1 did not open the patch")
	}
	press(m, "esc")
	runAll(m, submit(m, "/tasks apply 1"))
	if len(ka.applied) != 1 {
		t.Fatalf("/tasks apply 1: applied %v", ka.applied)
	}
	runAll(m, submit(m, "/tasks apply x"))
	if !strings.Contains(screen(m), "give patch N or apply N") {
		t.Errorf("a bad /tasks argument is not explained:\n%s", screen(m))
	}
}

// applyUndoAgent is a scriptAgent whose last undo point is the user's
// apply of a kept task (no item).
type applyUndoAgent struct {
	*scriptAgent
	undone int
}

func (u *applyUndoAgent) PreviewUndo(context.Context, string) (agent.UndoPreview, error) {
	return agent.UndoPreview{Text: `applying task 1 "two"`, Changes: []checkpoint.Change{{Kind: checkpoint.Changed, Path: "a.txt"}}}, nil
}

func (u *applyUndoAgent) Undo(ctx context.Context, item string) (agent.UndoPreview, []agent.Event, error) {
	u.undone++
	pre, _ := u.PreviewUndo(ctx, item)
	return pre, nil, nil
}

// TestUndoOfAnApply: /undo of an apply names the apply (not an item "#"),
// in the confirmation, the result and /rewind's label.
func TestUndoOfAnApply(t *testing.T) {
	ua := &applyUndoAgent{scriptAgent: &scriptAgent{}}
	mv := New(Config{Agent: ua, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test"})
	m := &mv
	c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	m.clock = c.now
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	runAll(m, submit(m, "/undo"))
	if s := screen(m); !strings.Contains(s, `Undo applying task 1 "two"`) || !strings.Contains(s, `before applying task 1 "two":`) || strings.Contains(s, "Undo #") {
		t.Fatalf("the confirmation does not name the apply:\n%s", s)
	}
	c.advance(time.Second)
	update(m, tea.KeyPressMsg{Code: 'y', Text: "y"})
	runAll(m, settle(m))
	if s := screen(m); ua.undone != 1 || !strings.Contains(s, `undid applying task 1 "two": 1 file restored`) {
		t.Errorf("undone %d; the result does not name the apply:\n%s", ua.undone, s)
	}
	if l := dialog.PointLabel(agent.RewindPoint{Kind: agent.PointApply, Text: `applying task 1 "two"`}); l != `applying task 1 "two"` {
		t.Errorf("/rewind labels the apply %q", l)
	}
}

// TestKeptTaskOfferFits: at 60×20 the offer's lines stay in the screen's
// width and its keys show whole.
func TestKeptTaskOfferFits(t *testing.T) {
	m, _, _ := newKeptModel(t)
	update(m, tea.WindowSizeMsg{Width: 60, Height: 20})
	events(t, m, keptNotice)
	s := screen(m)
	for _, l := range strings.Split(s, "\n") {
		if w := stripWidth(l); w > 60 {
			t.Errorf("a line is %d cells wide: %q", w, l)
		}
	}
	for _, k := range []string{"p show its patch", "a apply it over the current files", "esc later"} {
		if !strings.Contains(s, k) {
			t.Errorf("the offer at 60×20 hides %q:\n%s", k, s)
		}
	}
}
