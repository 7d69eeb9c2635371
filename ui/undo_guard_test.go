package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
)

// undoAgent is a scriptAgent with undo points: it records the undos asked.
type undoAgent struct {
	*scriptAgent
	undone []string
}

func (u *undoAgent) PreviewUndo(ctx context.Context, item string) (agent.UndoPreview, error) {
	return agent.UndoPreview{Item: "1", Text: "Write the file", Undone: []string{"1"},
		Changes: []checkpoint.Change{{Kind: checkpoint.Changed, Path: "main.go"}}}, nil
}

func (u *undoAgent) Undo(ctx context.Context, item string) (agent.UndoPreview, []agent.Event, error) {
	u.undone = append(u.undone, item)
	pre, _ := u.PreviewUndo(ctx, item)
	return pre, []agent.Event{agent.TodoUpdate{}}, nil
}

// openUndo shows the undo confirmation on a model with a hand-moved clock.
func openUndo(t *testing.T) (*Model, *undoAgent, *fakeClock) {
	t.Helper()
	ua := &undoAgent{scriptAgent: &scriptAgent{}}
	mv := New(Config{Agent: ua, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test"})
	m := &mv
	c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	m.clock = c.now
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	cmd := m.undoCommand("")
	if cmd == nil {
		t.Fatal("/undo asked for no preview")
	}
	update(m, cmd())
	if overlayOf[*dialog.Undo](m) == nil {
		t.Fatal("the undo confirmation did not open")
	}
	return m, ua, c
}

// TestUndoConfirmIgnoresTyping: the confirmation takes its keys only after
// a pause. "Yes now", typed as it opens, restores nothing and cancels
// nothing: it goes to the input, and the confirmation says so. A Y after
// a pause restores; esc cancels at once.
func TestUndoConfirmIgnoresTyping(t *testing.T) {
	m, ua, c := openUndo(t)
	if !strings.Contains(screen(m), "waiting for a deliberate answer") {
		t.Errorf("the confirmation does not say it waits for a deliberate answer:\n%s", screen(m))
	}
	var cmds []tea.Cmd
	for _, r := range "Yes now" {
		c.advance(80 * time.Millisecond)
		cmds = append(cmds, update(m, tea.KeyPressMsg{Code: r, Text: string(r)}))
	}
	for _, cmd := range cmds {
		if cmd != nil {
			update(m, cmd())
		}
	}
	if len(ua.undone) != 0 || overlayOf[*dialog.Undo](m) == nil {
		t.Fatalf("typing \"Yes now\" answered the confirmation: undone %v, open %v", ua.undone, overlayOf[*dialog.Undo](m) != nil)
	}
	if got := m.input.Raw(); got != "Yes now" {
		t.Errorf("the input holds %q, want the typed text", got)
	}
	if !strings.Contains(screen(m), "your typing went to the input") {
		t.Errorf("the confirmation does not say where the typing went:\n%s", screen(m))
	}

	c.advance(time.Second)
	update(m, tea.KeyPressMsg{Code: 'Y', Text: "Y"})
	cmd := settle(m)
	if cmd == nil {
		t.Fatal("a deliberate Y did nothing")
	}
	update(m, cmd())
	if len(ua.undone) != 1 || overlayOf[*dialog.Undo](m) != nil {
		t.Fatalf("a deliberate Y: undone %v, still open %v", ua.undone, overlayOf[*dialog.Undo](m) != nil)
	}

	m, ua, _ = openUndo(t)
	update(m, tea.KeyPressMsg{Code: tea.KeyEscape})
	if overlayOf[*dialog.Undo](m) != nil || len(ua.undone) != 0 {
		t.Errorf("esc at once: open %v, undone %v; want it cancelled", overlayOf[*dialog.Undo](m) != nil, ua.undone)
	}
}

// TestUndoConfirmTakesLowerY: the confirmation takes a plain y after a
// pause, like the approval dialog and every other question in tick; its
// key hint says y.
func TestUndoConfirmTakesLowerY(t *testing.T) {
	m, ua, c := openUndo(t)
	if s := screen(m); !strings.Contains(s, "y restore these files") {
		t.Errorf("the hint does not name y:\n%s", s)
	}
	c.advance(time.Second)
	update(m, tea.KeyPressMsg{Code: 'y', Text: "y"})
	cmd := settle(m)
	if cmd == nil {
		t.Fatalf("a deliberate y did nothing; input %q", m.input.Raw())
	}
	update(m, cmd())
	if len(ua.undone) != 1 || overlayOf[*dialog.Undo](m) != nil {
		t.Fatalf("a deliberate y: undone %v, still open %v", ua.undone, overlayOf[*dialog.Undo](m) != nil)
	}
	if got := m.input.Raw(); got != "" {
		t.Errorf("the y went to the input too: %q", got)
	}
}
