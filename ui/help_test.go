package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

// helpFrame is the overlay's part of the screen: the lines above the
// input's rule.
func helpFrame(m *Model) string {
	lines := strings.Split(screen(m), "\n")
	return strings.Join(lines[:m.geo.chatH+m.geo.pendingH+m.geo.panelH], "\n")
}

// TestHelpScrollsAt80x24: at 80×24 the overlay is taller than the screen;
// it says so and where the view is, keeps the close key on screen, and
// scrolls with the keys of its KeyMap and the mouse wheel down to the last
// command; any other key closes it.
func TestHelpScrollsAt80x24(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	press(m, "?")
	s := helpFrame(m)
	for _, want := range []string{"Keys", "Input and turn", "↓ more · lines 1–", "esc close"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the help at 80×24 lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "/quit") {
		t.Fatalf("the whole help fits at 80×24; the test needs a taller one:\n%s", s)
	}

	steps := []struct {
		name string
		msg  tea.Msg
		want []string // on the overlay after the step
	}{
		{"down", keyPress("down"), []string{"↑↓ more · lines 2–"}},
		{"up", keyPress("up"), []string{"↓ more · lines 1–"}},
		{"wheel down", tea.MouseWheelMsg{Button: tea.MouseWheelDown}, []string{"↑↓ more · lines 4–"}},
		{"wheel up", tea.MouseWheelMsg{Button: tea.MouseWheelUp}, []string{"↓ more · lines 1–"}},
		{"page down", keyPress("pgdown"), []string{"↑↓ more", "Approval dialog"}},
		{"end", keyPress("end"), []string{"↑ more", "/quit", "/undo", "esc close"}},
		{"page down at the end", keyPress("pgdown"), []string{"↑ more", "/quit"}},
	}
	for _, st := range steps {
		update(m, st.msg)
		s := helpFrame(m)
		for _, want := range st.want {
			if !strings.Contains(s, want) {
				t.Fatalf("after %s the help lacks %q:\n%s", st.name, want, s)
			}
		}
		if overlayOf[*dialog.Help](m) == nil {
			t.Fatalf("%s closed the help", st.name)
		}
	}
	if n := strings.Count(screen(m), "\n") + 1; n != 24 {
		t.Fatalf("the screen has %d lines, want 24", n)
	}
	press(m, "x")
	if overlayOf[*dialog.Help](m) != nil || strings.Contains(screen(m), "esc close") {
		t.Fatalf("x did not close the help:\n%s", screen(m))
	}
	if m.input.Value() != "" {
		t.Fatalf("the key that closed the help went to the input: %q", m.input.Value())
	}
}

// TestHelpFitsWithoutScrolling: on a tall screen the whole help shows with
// the commands described, and it does not speak of scrolling.
func TestHelpFitsWithoutScrolling(t *testing.T) {
	m, _ := newTestModel(t, 160, 60)
	press(m, "?")
	s := helpFrame(m)
	for _, want := range []string{"any key closes this help", "/quit", "quit tick"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the help at 160×60 lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "more · lines") {
		t.Fatalf("the help at 160×60 says it scrolls:\n%s", s)
	}
	press(m, "down") // a scroll key scrolls nothing, and leaves it open
	if overlayOf[*dialog.Help](m) == nil {
		t.Fatal("down closed a help that does not scroll")
	}
	press(m, "esc")
	if overlayOf[*dialog.Help](m) != nil {
		t.Fatal("esc did not close the help")
	}
}

// TestGoldenHelp: the overlay at 80×24, at its top and at its end, and at
// 60×15 (the smallest screen), as the user sees it.
func TestGoldenHelp(t *testing.T) {
	tests := []struct {
		name string
		w, h int
		keys []string
	}{
		{"80x24-top", 80, 24, nil},
		{"80x24-end", 80, 24, []string{"end"}},
		{"60x15-top", 60, 15, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newTestModel(t, tt.w, tt.h)
			press(m, "?")
			for _, k := range tt.keys {
				press(m, k)
			}
			golden.RequireEqual(t, helpFrame(m))
		})
	}
}
