package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/ui/dialog"
)

// TestSeamPlanEditorUnderApproval: the plan editor (dialog.PlanEditor) is
// open when the turn asks for an approval; the approval goes on top and a
// deliberate y answers only it: the editor's selection does not move and
// nothing is edited. Once answered, the editor takes the keys again.
func TestSeamPlanEditorUnderApproval(t *testing.T) {
	list := plan("G", "x ALPHA", "> BRAVO", "p CHARLIE")
	m, a := newPlanModel(t, list)
	m.panel.SetList(list, m.now)
	submit(m, "go")
	press(m, "ctrl+p")
	ed := overlayOf[*dialog.PlanEditor](m)
	if ed == nil || m.panel.Sel() != 1 {
		t.Fatalf("ctrl+p: editor %v, selection %d", ed != nil, m.panel.Sel())
	}
	reply := askApproval(t, m)
	if m.over.top() != overlay(m.approvalQueue()) {
		t.Fatal("the approval is not on top of the plan editor")
	}
	pause(m)
	press(m, "down")
	pause(m)
	press(m, "y")
	settle(m)
	if ans, ok := answered(reply); !ok || !ans.Allow {
		t.Fatalf("y over the editor: answer %+v (sent %v), want allow", ans, ok)
	}
	if overlayOf[*dialog.PlanEditor](m) != ed || m.panel.Sel() != 1 || ed.Typing() != "" {
		t.Fatalf("the approval's keys reached the editor: selection %d, typing %q", m.panel.Sel(), ed.Typing())
	}
	press(m, "g")
	if it := a.real.Todos().Items[1]; it.ID != "2" || !it.StopAfter {
		t.Errorf("g after the answer: item 2 = %+v, want stop after", it)
	}
	if s := screen(m); !strings.Contains(s, "stop after") {
		t.Errorf("the panel does not show the gate:\n%s", s)
	}
}
