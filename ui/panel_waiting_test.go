package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
)

// TestPanelWaitingAtGate: while a turn is paused at a gate, the item that
// waits (TodoUpdate.Waiting) shows no spinner and its clock stops; the
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
	if ln := lineWith(screen(m), "Building"); !strings.Contains(ln, "○ Building") || !strings.Contains(ln, " 5.0s") {
		t.Fatalf("the waiting item shows a spinner or a running clock: %q", ln)
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
