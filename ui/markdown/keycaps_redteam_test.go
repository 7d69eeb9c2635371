package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestKeycapsWrapInTheirBox: an answer whose paragraphs, list items and
// code hold keycaps ("1️⃣ go") renders no line wider than its width, and
// its logical text keeps every keycap as written: glamour's word wrap
// took a keycap for one cell, so a paragraph of them came out lines a
// cell over per keycap, their ends cut off the screen.
func TestKeycapsWrapInTheirBox(t *testing.T) {
	src := strings.Repeat("1\ufe0f\u20e3 go ", 20) + "\n\n- 2\ufe0f\u20e3 " + strings.Repeat("word 7\ufe0f ", 12) + "\n\n" + "> #\ufe0f\u20e3 " + strings.Repeat("quote ", 14) + "\n"
	for _, w := range []int{40, 57} {
		r := New(WithWidth(w))
		r.Append(src)
		r.Finish()
		for _, l := range r.Lines() {
			if n := ansi.StringWidth(l); n > w {
				t.Errorf("width %d: line %q is %d cells", w, ansi.Strip(l), n)
			}
		}
		var logic []string
		for i := range r.Blocks() {
			logic = append(logic, r.LogicalBlock(i))
		}
		all := strings.Join(logic, "\n")
		for _, k := range []string{"1\ufe0f\u20e3 go 1\ufe0f\u20e3", "2\ufe0f\u20e3 word 7\ufe0f", "#\ufe0f\u20e3 quote"} {
			if !strings.Contains(all, k) {
				t.Errorf("width %d: logical text lacks %q:\n%s", w, k, all)
			}
		}
	}
}
