package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent"
)

// TestKeycapsCutKeepTheirEllipsis: lines the layout cuts that hold
// keycaps ("1️⃣", as models number steps) still end in "…" on the screen
// at tick's narrowest width, under both of the renderer's measures: a
// tool call's line in the chat, and in the chat and the panel the rows of
// tasks running side by side (seam: parallel tasks) under plan items. ansi's
// Truncate took a keycap for one cell, so each cut line came out a cell
// over per keycap, and the frame's last cut took the "…" (and more) off:
// the user could not see that the line was cut.
func TestKeycapsCutKeepTheirEllipsis(t *testing.T) {
	kc := strings.Repeat("1\ufe0f\u20e3", 12)
	lines := map[string]string{ // a word that starts the line: the text that runs over
		"echo":  "echo " + kc + " and a long tail of words ZEND",
		"tpart": "tpart " + kc + " of the work on the side ZEND",
	}
	for _, grapheme := range []bool{false, true} {
		name := "wcwidth"
		if grapheme {
			name = "grapheme clusters"
		}
		t.Run(name, func(t *testing.T) {
			m, _ := newTestModel(t, 60, 30)
			if grapheme {
				update(m, tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeSet})
			}
			submit(m, "go")
			events(t, m, agent.TodoUpdate{List: plan("g", "x Build "+kc, "p Test "+kc)},
				agent.ToolStart{ID: "x", Name: "bash", Summary: lines["echo"]},
				agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: lines["tpart"], Item: "1"},
				agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: lines["tpart"], Item: "2"})
			s := screen(m)
			if strings.Contains(s, "ZEND") {
				t.Fatalf("nothing was cut: the test needs longer lines:\n%s", s)
			}
			for word := range lines {
				found := false
				for _, l := range strings.Split(s, "\n") {
					if !strings.Contains(l, word+" ") {
						continue
					}
					found = true
					if !strings.Contains(l, "…") { // before the call's time in the chat
						t.Errorf("a cut line lost its ellipsis: %q", l)
					}
				}
				if !found {
					t.Errorf("no line starts with %q:\n%s", word, s)
				}
			}
		})
	}
}
