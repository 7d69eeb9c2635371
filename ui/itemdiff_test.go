package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

// openPlanOn opens the plan editor on a model talking to ra, with a plan
// of two items (the first done, the second running).
func openPlanOn(t *testing.T, ra *rewindAgent) *Model {
	t.Helper()
	mv := New(Config{Agent: ra, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test"})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 40})
	list := plan("G", "x Write the file", "> Test it")
	m.panel.update(list, m.now)
	press(m, "ctrl+p")
	if overlayOf[*planEditor](m) == nil {
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
	if overlayOf[*itemDiff](m) == nil {
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
	if ed := overlayOf[*planEditor](m); ed == nil || ed.typing != "" {
		t.Fatal("a key in the diff view reached the plan editor")
	}
	press(m, "esc")
	if overlayOf[*itemDiff](m) != nil || overlayOf[*planEditor](m) == nil {
		t.Fatal("esc did not go back to the plan editor")
	}
	press(m, "down")
	update(m, press(m, "enter")())
	if overlayOf[*itemDiff](m) != nil || !strings.Contains(screen(m), "#2: "+agent.ErrNoUndo.Error()) {
		t.Errorf("an item without an undo point does not say why:\n%s", screen(m))
	}
}
