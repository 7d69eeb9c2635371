package style

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapKeycaps: text with keycaps ("1️⃣ go"), digits with VS16 and a
// long run of keycaps wraps to lines no wider than w, as StringWidth and
// the terminal count them, and loses no character: ansi's Wrap took a
// keycap for one cell, so each line came out a cell over per keycap and
// its end was cut off the screen.
func TestWrapKeycaps(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("1\ufe0f\u20e3 go ", 12),
		strings.Repeat("#\ufe0f\u20e3*\ufe0f\u20e3 7\ufe0f ok ", 9),
		strings.Repeat("1\ufe0f\u20e3", 90),
		"plain 1\u20e3 keycap without VS16 " + strings.Repeat("x", 40),
		"a stand-in \U000f0031\ufe0f already there 1\ufe0f\u20e3 " + strings.Repeat("y ", 20),
	} {
		for _, w := range []int{20, 33} {
			for name, wrap := range map[string]func(string, int) []string{"WrapText": WrapText, "WrapHard": WrapHard} {
				lines := wrap(s, w)
				for _, l := range lines {
					if n := ansi.StringWidth(l); n > w && !strings.Contains(s, "\U000f0031") {
						t.Errorf("%s(%q, %d): line %q is %d cells", name, s, w, l, n)
					}
				}
				if got, want := strings.Join(strings.Fields(strings.Join(lines, " ")), ""), strings.Join(strings.Fields(s), ""); got != want {
					t.Errorf("%s(%q, %d) lost text: %q", name, s, w, got)
				}
			}
		}
	}
}
