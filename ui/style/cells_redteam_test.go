package style

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/termsafe"
)

// FuzzFold: hostile text (emoji pieces in any order) never hangs or
// panics Fold, Cut and Fit; Cut never gives more than w cells by c's
// measure and Fit exactly w: the frame's last guard holds.
func FuzzFold(f *testing.F) {
	for _, s := range []string{"👍🏽", "❤️", "1️⃣", "\u200d👍\U0001F3FD", "\x1b[31m👨‍👩‍👧\x1b[0m", "\u200d\u200d", "🇫🇷🇩", "\xf3\xa0\x81"} {
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, s string, w int) {
		s = termsafe.Text(s) // the chat's text, as the chat keeps it
		w = w%64 + 1
		if w < 1 {
			w = -w + 1
		}
		for _, c := range []Cells{{}, {Method: ansi.GraphemeWidth}} {
			if n := c.Method.StringWidth(c.Cut(s, w)); n > w {
				t.Errorf("Cut(%q, %d) is %d cells", s, w, n)
			}
			if n := c.Method.StringWidth(c.Fit(s, w)); n != w {
				t.Errorf("Fit(%q, %d) is %d cells", s, w, n)
			}
		}
	})
}

// TestFoldFloods: a ZWJ chain thousands of emoji long, a flood of
// combining marks and a line of bare joiners fold in bounded output.
func TestFoldFloods(t *testing.T) {
	for name, s := range map[string]string{
		"zwj chain":  strings.Repeat("👨\u200d", 5000) + "👧",
		"combining":  "e" + strings.Repeat("\u0301", 20000),
		"bare zwj":   strings.Repeat("\u200d", 20000),
		"vs16 flood": "❤" + strings.Repeat("\ufe0f", 20000),
		"tones":      strings.Repeat("🏽", 20000),
		"flags":      strings.Repeat("🇫", 20001),
	} {
		got := Cells{}.Fold(s)
		if len(got) > len(s)+8 && len(got) > 2*len(s) {
			t.Errorf("%s: Fold grew %d bytes to %d", name, len(s), len(got))
		}
		if a, b := ansi.StringWidthWc(got), ansi.StringWidth(s); a != b {
			t.Errorf("%s: width %d after Fold, want %d", name, a, b)
		}
	}
}

// TestFitKeycapAtTheEdge: under grapheme clustering (a terminal that
// reported mode 2027), a keycap or a digit with VS16 that crosses the
// box's edge is cut, not kept: ansi's Truncate takes the digit as one
// cell and its marks as none, so the line came out a cell wider than the
// box (the frame's last guard let a line overflow the screen).
func TestFitKeycapAtTheEdge(t *testing.T) {
	c := Cells{Method: ansi.GraphemeWidth}
	for _, tc := range []struct {
		s string
		w int
	}{
		{strings.Repeat("x", 9) + "1\ufe0f\u20e3", 10},
		{strings.Repeat("x", 9) + "#\ufe0f\u20e3 tail", 10},
		{"0\ufe0f", 1},
		{"ab" + "*\ufe0f\u20e3", 3},
	} {
		if got := c.Fit(tc.s, tc.w); c.Method.StringWidth(got) != tc.w {
			t.Errorf("Fit(%q, %d) = %q, %d cells", tc.s, tc.w, got, c.Method.StringWidth(got))
		}
		if got := c.Cut(tc.s, tc.w); c.Method.StringWidth(got) > tc.w {
			t.Errorf("Cut(%q, %d) = %q, %d cells", tc.s, tc.w, got, c.Method.StringWidth(got))
		}
	}
}
