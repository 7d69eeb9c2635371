package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

func mouseAt(kind string, x, y int) tea.Msg {
	mo := tea.Mouse{X: x, Y: y, Button: tea.MouseLeft}
	switch kind {
	case "press":
		return tea.MouseClickMsg(mo)
	case "drag":
		return tea.MouseMotionMsg(mo)
	}
	return tea.MouseReleaseMsg(mo)
}

// TestMouseSelection: a drag in the chat selects what the frame shows
// there, highlights it and copies it on release; a click alone selects
// nothing; a drag past the pane's edge stops at it (the panel beside the
// chat is never selected); with mouse = false tick does not take the
// mouse.
func TestMouseSelection(t *testing.T) {
	m, a := newTestModel(t, 140, 30)
	submit(m, "go")
	events(t, m, agent.TodoUpdate{List: plan("Greet", ">", "p")},
		agent.AssistantDone{Text: "alpha bravo charlie\n\ndelta echo foxtrot", Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	press(m, "ctrl+t") // the panel beside the chat, if it is not open
	lines := strings.Split(screen(m), "\n")
	y := -1
	for i, l := range lines {
		if strings.Contains(l, "alpha bravo") {
			y = i
		}
	}
	if y < 0 || y+2 >= m.geo.chatH {
		t.Fatalf("answer not on screen:\n%s", screen(m))
	}
	x := strings.Index(lines[y], "bravo")
	update(m, mouseAt("press", x, y), mouseAt("drag", x+3, y+1))
	if !strings.Contains(m.View().Content, "\x1b[7m") {
		t.Error("the selection is not highlighted while dragging")
	}
	msgs := runCmds(update(m, mouseAt("release", x+100, y+2)))
	got, ok := osc52Text(msgs)
	if !ok || !strings.HasPrefix(got, "bravo charlie\n") || !strings.Contains(got, "delta echo foxtrot") {
		t.Fatalf("the drag copied %q (found %v)", got, ok)
	}
	if m.geo.panelWide && strings.Contains(got, "Greet") {
		t.Errorf("the selection reached into the panel: %q", got)
	}
	// A click is not a selection.
	if msgs := runCmds(update(m, mouseAt("press", x, y), mouseAt("release", x, y))); len(msgs) != 0 || m.sel.on {
		t.Errorf("a click selected: %v", msgs)
	}
	// The wheel and keys clear a selection.
	update(m, mouseAt("press", x, y), mouseAt("drag", x+3, y))
	update(m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.sel.on {
		t.Error("the wheel kept the selection")
	}
	if m.View().MouseMode != tea.MouseModeCellMotion {
		t.Error("tick does not take the mouse by default")
	}
	m.cfg.NoMouse = true
	if m.View().MouseMode != tea.MouseModeNone {
		t.Error("mouse = false still takes the mouse")
	}
}
