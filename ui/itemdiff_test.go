package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
)

// openPlanOn opens the plan editor on a model talking to ra, with a plan
// of two items (the first done, the second running).
func openPlanOn(t *testing.T, ra *rewindAgent) *Model {
	t.Helper()
	mv := New(Config{Agent: ra, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test"})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 40})
	list := plan("G", "x Write the file", "> Test it")
	m.panel.SetList(list, m.now)
	press(m, "ctrl+p")
	if overlayOf[*dialog.PlanEditor](m) == nil {
		t.Fatal("ctrl+p did not open the plan editor")
	}
	return m
}

// TestItemDiffFromPlanEditor: enter on an item of the plan editor shows
// the files it changed and their diff, sanitised and scrollable; esc goes
// back to the editor. An item without an undo point says why.
func TestItemDiffFromPlanEditor(t *testing.T) {
	var patch strings.Builder
	patch.WriteString("diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n@@ -1,3 +1,80 @@\n")
	patch.WriteString("+evil \x1b]0;owned\x07 \x1b[2J line\n")
	for i := range 80 {
		fmt.Fprintf(&patch, "+line %d\n", i)
	}
	ra := &rewindAgent{scriptAgent: &scriptAgent{}, patch: patch.String()}
	m := openPlanOn(t, ra)
	press(m, "up") // the first item: the one with an undo point
	cmd := press(m, "enter")
	if cmd == nil {
		t.Fatal("enter on an item asked for no diff")
	}
	update(m, cmd())
	if overlayOf[*dialog.ItemDiff](m) == nil {
		t.Fatalf("the item's diff did not open:\n%s", screen(m))
	}
	s := screen(m)
	for _, want := range []string{"#1 Write the file · what it changed", "changed  main.go", "+++ b/main.go", "+line 0"} {
		if !strings.Contains(s, want) {
			t.Errorf("the diff lacks %q:\n%s", want, s)
		}
	}
	if v := m.View().Content; strings.Contains(v, "\x1b]0;owned") || strings.Contains(v, "\x1b[2J") {
		t.Fatalf("a control sequence of the diff reached the terminal: %q", v)
	}
	if strings.Contains(s, "+line 79") {
		t.Fatalf("the whole diff fits: the test needs a longer one:\n%s", s)
	}
	press(m, "end")
	if s := screen(m); !strings.Contains(s, "+line 79") || strings.Contains(s, "+line 0 ") {
		t.Errorf("end did not scroll to the end of the diff:\n%s", s)
	}
	press(m, "a") // read-only: the editor below does not get it
	if ed := overlayOf[*dialog.PlanEditor](m); ed == nil || ed.Typing() != "" {
		t.Fatal("a key in the diff view reached the plan editor")
	}
	press(m, "esc")
	if overlayOf[*dialog.ItemDiff](m) != nil || overlayOf[*dialog.PlanEditor](m) == nil {
		t.Fatal("esc did not go back to the plan editor")
	}
	press(m, "down")
	update(m, press(m, "enter")())
	if overlayOf[*dialog.ItemDiff](m) != nil || !strings.Contains(screen(m), "#2: "+agent.ErrNoUndo.Error()) {
		t.Errorf("an item without an undo point does not say why:\n%s", screen(m))
	}
}

// TestItemDiffUnderAnApproval (seam: an open approval dialog, a running
// turn): an approval that arrives while an item's diff is being asked for
// stays on top of the diff when it opens; its keys answer the approval,
// not the diff or the editor below; once answered, the diff has the keys
// again and esc goes back to the editor.
func TestItemDiffUnderAnApproval(t *testing.T) {
	var patch strings.Builder
	patch.WriteString("diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n@@ -1,3 +1,80 @@\n")
	for i := range 80 {
		fmt.Fprintf(&patch, "+line %d\n", i)
	}
	ra := &rewindAgent{scriptAgent: &scriptAgent{}, patch: patch.String()}
	mv := New(Config{Agent: ra, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test"})
	m := &mv
	m.after = noTimer
	c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	m.clock = c.now
	update(m, tea.WindowSizeMsg{Width: 100, Height: 40})
	submit(m, "go")
	events(t, m, agent.TodoUpdate{List: plan("G", "x Write the file", "> Test it")})
	press(m, "ctrl+p")
	press(m, "up")
	ask := press(m, "enter")
	if ask == nil {
		t.Fatal("enter on an item asked for no diff")
	}
	reply := make(chan agent.Approval, 1)
	events(t, m, agent.ToolStart{ID: "c1", Name: "bash", Summary: "make"},
		agent.ApprovalRequest{ID: "c1", Tool: "bash", Summary: "make", Detail: "make", Reply: reply})
	update(m, ask()) // the diff's answer comes after the approval
	if overlayOf[*dialog.ItemDiff](m) == nil {
		t.Fatalf("the item's diff did not open under the approval:\n%s", screen(m))
	}
	if _, ok := m.over.top().(*dialog.Approvals); !ok {
		t.Fatalf("the diff opened above the approval: top is %T", m.over.top())
	}
	c.advance(time.Second)
	press(m, "y")
	select {
	case ans := <-reply:
		if !ans.Allow {
			t.Fatalf("y answered %+v, want allowed", ans)
		}
	default:
		t.Fatal("y with the item diff below did not answer the approval")
	}
	if _, ok := m.over.top().(*dialog.ItemDiff); !ok {
		t.Fatalf("after the answer the diff is not on top: %T", m.over.top())
	}
	press(m, "end")
	if s := screen(m); !strings.Contains(s, "+line 79") {
		t.Errorf("the diff does not scroll after the approval:\n%s", s)
	}
	press(m, "esc")
	if overlayOf[*dialog.ItemDiff](m) != nil || overlayOf[*dialog.PlanEditor](m) == nil {
		t.Fatal("esc did not go back to the plan editor")
	}
}
