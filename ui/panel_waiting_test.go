package ui

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

// TestPanelWaitingAtGate: while a turn is paused at a gate, the item that
// waits (TodoUpdate.Waiting) shows as pending, its text and not its
// active form (issue 30 §6), with no spinner, and its clock stops; the
// clock runs again when the turn goes on.
func TestPanelWaitingAtGate(t *testing.T) {
	m, _ := newTestModel(t, 130, 30)
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	m.clock = func() time.Time { return now }
	submit(m, "x")
	l := plan("G", "x Design", "> Build")
	events(t, m, agent.TodoUpdate{List: l, Rev: 1})
	now = now.Add(5 * time.Second)
	events(t, m, agent.TodoUpdate{List: l, Rev: 1, Waiting: "2"}, agent.Paused{After: "1", Next: "2", Text: "paused after #1"})
	now = now.Add(time.Hour)
	events(t, m, agent.ToolStart{ID: "a", Name: "bash"})
	if ln := lineWith(screen(m), "Build"); !strings.Contains(ln, "○ Build ") || strings.Contains(ln, "Building") || !strings.Contains(ln, " 5.0s") {
		t.Fatalf("the waiting item shows its active form, a spinner or a running clock: %q", ln)
	}
	events(t, m, agent.TodoUpdate{List: l, Rev: 1})
	now = now.Add(7 * time.Second)
	events(t, m, agent.ToolStart{ID: "b", Name: "bash"})
	if ln := lineWith(screen(m), "Building"); !strings.Contains(ln, " 12s") {
		t.Fatalf("the clock did not run again after the pause: %q", ln)
	}
}

// lineWith returns the first line of s containing sub, or "".
func lineWith(s, sub string) string {
	for _, ln := range strings.Split(s, "\n") {
		if strings.Contains(ln, sub) {
			return ln
		}
	}
	return ""
}

// TestGatePauseStopsTheTurnsSignals (issue 30 §6): at a gate the status
// bar's spinner and clock stop and the input says enter continues; enter
// goes on, and the hint is the steering one again.
func TestGatePauseStopsTheTurnsSignals(t *testing.T) {
	m, _ := newPlanModel(t, todo.List{})
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	m.clock = func() time.Time { return now }
	submit(m, "x")
	l := plan("G", "x Design", "p Build")
	now = now.Add(3 * time.Second)
	events(t, m, agent.TodoUpdate{List: l, Rev: 1}, agent.Paused{After: "1", Next: "2", Text: "paused after #1"})
	bar := func() string { return lastLine(screen(m)) }
	before := bar()
	now = now.Add(time.Minute)
	update(m, spinner.TickMsg{ID: m.spin.ID()})
	update(m, paintMsg{})
	if after := bar(); after != before || !strings.Contains(after, "3.0s") {
		t.Errorf("the status bar moves at a gate:\n%s\n%s", before, after)
	}
	for _, f := range spinner.MiniDot.Frames {
		if strings.Contains(bar(), f) {
			t.Errorf("a spinner turns at a gate: %s", bar())
		}
	}
	if s := screen(m); !strings.Contains(s, "enter to continue") || strings.Contains(s, "enter to steer") {
		t.Errorf("the input does not say that enter continues:\n%s", s)
	}
	press(m, "enter")
	if !strings.Contains(screen(m), "enter to steer") {
		t.Errorf("after enter the input's hint is not the steering one:\n%s", screen(m))
	}
	now = now.Add(2 * time.Second)
	events(t, m, agent.ToolStart{ID: "b", Name: "bash"})
	if !strings.Contains(bar(), "5.0s") {
		t.Errorf("the turn's clock counts the pause or did not run again: %s", bar())
	}
}

// TestPanelTaskItemStopsSpinning (issue 30 §6): an item whose task
// finished stops spinning while it waits for the model to complete it;
// an item whose task still runs spins on.
func TestPanelTaskItemStopsSpinning(t *testing.T) {
	m, _ := newTestModel(t, 130, 30)
	submit(m, "x")
	l := plan("G", "> Parse", "> Lex")
	events(t, m, agent.TodoUpdate{List: l, Rev: 1},
		agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "parse it", Item: "1"},
		agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: "lex it", Item: "2"},
		agent.ToolEnd{ID: "t1", Name: agent.TaskTool, Output: "parsed"})
	spins := func(ln string) bool {
		for _, f := range spinner.MiniDot.Frames {
			if strings.Contains(ln, f) {
				return true
			}
		}
		return false
	}
	s := screen(m)
	if ln := lineWith(s, "Parseing"); ln == "" || spins(ln) {
		t.Errorf("the item whose task finished still spins: %q\n%s", ln, s)
	}
	if ln := lineWith(s, "Lexing"); ln == "" || !spins(ln) {
		t.Errorf("the item whose task runs does not spin: %q\n%s", ln, s)
	}
}
