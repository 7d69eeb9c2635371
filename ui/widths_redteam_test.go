package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// TestKeycapsAtTheEdgeUnder2027: a terminal that clusters graphemes
// (mode 2027) and a command's output and summary full of keycaps ("1️⃣")
// and digits with VS16, cut at the edge (not wrapped): no row of the frame is wider than the screen, and the panel's
// rule stays in its column. ansi's Truncate measures the digit alone and
// its marks as nothing, so a keycap cut at an edge came out a cell over
// and the frame's last guard (the same Truncate) let it through.
func TestKeycapsAtTheEdgeUnder2027(t *testing.T) {
	keys := strings.Repeat("1\ufe0f\u20e3", 90)
	digits := strings.Repeat("7\ufe0f", 90)
	for _, w := range []int{120, 81, 80} {
		m, _ := newTestModel(t, w, 30)
		update(m, grapheme2027)
		submit(m, "count")
		events(t, m,
			agent.TodoUpdate{List: plan("Keys", "> one", "p two")},
			agent.ToolStart{ID: "b", Name: "bash", Summary: "x" + keys},
			agent.ToolEnd{ID: "b", Name: "bash", Output: keys + "\nx" + keys + "\n" + digits + "\nexit status 0"},
		)
		checkBox(t, m)
	}
}

// TestKeycapsWrapOnScreen: a question and an answer whose paragraphs are
// full of keycaps ("1️⃣ go") wrap inside the chat, in both measures: every
// row holds its box, the panel's rule stays in its column, and every
// word is on the screen. ansi's wrap took a keycap for one cell, so each
// line was a cell too long per keycap and the frame cut its end off.
func TestKeycapsWrapOnScreen(t *testing.T) {
	para := strings.Repeat("1\ufe0f\u20e3 go ", 30) + "END"
	for _, mode := range []string{"wcwidth", "2027"} {
		m, _ := newTestModel(t, 120, 40)
		if mode == "2027" {
			update(m, grapheme2027)
		}
		submit(m, "ask "+para+"Q")
		events(t, m,
			agent.TodoUpdate{List: plan("Keys", "> one", "p two")},
			agent.TextDelta{Text: "- " + para + "A\n\n" + para + "B\n"},
		)
		checkBox(t, m)
		s := screen(m)
		for _, end := range []string{"ENDQ", "ENDA", "ENDB"} {
			if !strings.Contains(s, end) {
				t.Errorf("%s: %q is not on the screen:\n%s", mode, end, s)
			}
		}
		n := 0
		for _, f := range strings.Fields(s) {
			if f == "go" {
				n++
			}
		}
		if n != 3*30 {
			t.Errorf("%s: %d of the %d words are on the screen:\n%s", mode, n, 3*30, s)
		}
	}
}
