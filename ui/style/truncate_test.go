package style

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestTruncateWidthKeepsTheEllipsis: a line of keycaps ("1️⃣", "#️⃣") or
// digits with VS16 cut to a narrow width (30 columns, as a narrow box
// has) comes out no wider than that and still ends in "…", styled or
// not, so the frame's last cut (render) never takes the "…" off: ansi's
// Truncate took a keycap for one cell, and its line came out a cell over
// per keycap. A line that fits is left as it is.
func TestTruncateWidthKeepsTheEllipsis(t *testing.T) {
	kc := "1\ufe0f\u20e3"
	bold := lipgloss.NewStyle().Bold(true)
	for _, tt := range []struct {
		name string
		s    string
		cut  bool
	}{
		{"keycaps then words", strings.Repeat(kc+" go ", 10), true},
		{"a run of keycaps", strings.Repeat(kc, 40), true},
		{"keycaps over only by the true count", strings.Repeat(kc, 15) + "ab", true}, // ansi counts 17 of 30, they take 32
		{"mixed", "#\ufe0f\u20e3 step *\ufe0f\u20e3 and 7\ufe0f " + strings.Repeat("words ", 8), true},
		{"styled", bold.Render(strings.Repeat(kc+" go ", 10)), true},
		{"fits", kc + " go", false},
		{"plain text", strings.Repeat("x", 40), true},
	} {
		for _, w := range []int{30, 11} {
			got := TruncateWidth(tt.s, w, "…")
			if n := ansi.StringWidth(got); n > w {
				t.Errorf("%s at %d: %d cells: %q", tt.name, w, n, got)
			}
			plain := ansi.Strip(got)
			switch {
			case tt.cut && ansi.StringWidth(tt.s) > w && !strings.HasSuffix(plain, "…"):
				t.Errorf("%s at %d: cut without its ellipsis: %q", tt.name, w, plain)
			case !tt.cut && got != tt.s:
				t.Errorf("%s at %d: a line that fits changed: %q", tt.name, w, got)
			}
		}
	}
}
