package style

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// cellsCases are the emoji sequences terminals disagree on, with what Fold
// makes of them under WcWidth. tmux 3.3a, asked with a cursor position
// report, puts them at: "👍🏽" 4, "❤️" 1, "👨‍👩‍👧" 2, "☺️" 1, "🏳️‍🌈" 1,
// "1️⃣" 1 — neither wcwidth nor the grapheme count throughout.
var cellsCases = []struct {
	name, in, wc string
}{
	{"plain", "plain ascii │ box ✓ 中文 é", "plain ascii │ box ✓ 中文 é"},
	{"skin tone", "ok 👍🏽!", "ok 👍!"},
	{"heart with VS16", "I ❤️ it", "I ❤  it"},
	{"smile with VS16", "☺️", "☺ "},
	{"family ZWJ", "👨‍👩‍👧 home", "👨 home"},
	{"woman technologist", "👩‍💻", "👩"},
	{"rainbow flag", "🏳️‍🌈", "🏳 "},
	{"trans flag, widths agree but tmux joins", "🏳️‍⚧️", "🏳 "},
	{"keycap", "1️⃣ step", "1⃣  step"},
	{"flag pair kept", "🇫🇷", "🇫🇷"},
	{"lone skin tone kept", "🏽", "🏽"},
	{"text presentation kept", "❤︎", "❤︎"},
	{"styled", "\x1b[1m👍🏽\x1b[m x", "\x1b[1m👍\x1b[m x"},
	{"subdivision flag, tags are zero width to all", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"},
}

// TestCellsFold: under WcWidth every risky sequence becomes a form the
// renderer, the layout (ansi.StringWidth) and terminals measure alike, at
// the width the layout gave it; under GraphemeWidth nothing changes.
func TestCellsFold(t *testing.T) {
	for _, tc := range cellsCases {
		t.Run(tc.name, func(t *testing.T) {
			wc := Cells{Method: ansi.WcWidth}
			got := wc.Fold(tc.in)
			if got != tc.wc {
				t.Errorf("Fold(%q) = %q, want %q", tc.in, got, tc.wc)
			}
			if g, w := ansi.StringWidth(got), ansi.StringWidth(tc.in); g != w {
				t.Errorf("Fold(%q) is %d cells by the layout's measure, the text %d", tc.in, g, w)
			}
			if g, w := ansi.StringWidthWc(got), ansi.StringWidth(got); g != w {
				t.Errorf("Fold(%q) = %q: the renderer counts %d cells, the layout %d", tc.in, got, g, w)
			}
			if g := (Cells{Method: ansi.GraphemeWidth}).Fold(tc.in); g != tc.in {
				t.Errorf("GraphemeWidth Fold(%q) = %q, want it unchanged", tc.in, g)
			}
		})
	}
}

// TestCellsFit: Fit holds a line to its box by the renderer's measure,
// under both methods.
func TestCellsFit(t *testing.T) {
	line := "a 👍🏽 b ❤️ c 👨‍👩‍👧 d ☺️ e " + strings.Repeat("x", 30)
	for _, m := range []ansi.Method{ansi.WcWidth, ansi.GraphemeWidth} {
		c := Cells{Method: m}
		for _, w := range []int{1, 3, 5, 10, 17, 80} {
			if got := c.Fit(line, w); m.StringWidth(got) != w {
				t.Errorf("method %d: Fit(_, %d) = %q, %d cells", m, w, got, m.StringWidth(got))
			}
		}
	}
}

// TestForModeReport: the measure follows the terminal's answer as Bubble
// Tea's renderer does.
func TestForModeReport(t *testing.T) {
	tests := []struct {
		v    ansi.ModeSetting
		want ansi.Method
	}{
		{ansi.ModeNotRecognized, ansi.WcWidth},
		{ansi.ModePermanentlyReset, ansi.WcWidth},
		{ansi.ModeReset, ansi.GraphemeWidth},
		{ansi.ModeSet, ansi.GraphemeWidth},
		{ansi.ModePermanentlySet, ansi.GraphemeWidth},
	}
	for _, tt := range tests {
		if got := ForModeReport(tt.v).Method; got != tt.want {
			t.Errorf("ForModeReport(%d) = %d, want %d", tt.v, got, tt.want)
		}
	}
}

// BenchmarkCellsFoldPlain is Fold on a line without emoji sequences, as
// nearly every line of a frame is.
func BenchmarkCellsFoldPlain(b *testing.B) {
	line := "\x1b[38;5;244m│\x1b[m  go test ./... ✓ passed in 1.2s · café 日本語 " + strings.Repeat("x", 60)
	c := Cells{}
	for b.Loop() {
		_ = c.Fold(line)
	}
}

// TestHasJoiner: the byte scan finds every joiner rune and nothing else
// around them.
func TestHasJoiner(t *testing.T) {
	for r := rune(0x80); r <= 0xe00ff; r++ {
		if r >= 0xd800 && r < 0xe000 {
			continue
		}
		s := "a" + string(r) + "b"
		if got := hasJoiner(s); got != joiner(r) {
			t.Errorf("hasJoiner(%q) = %v, joiner(%U) = %v", s, got, r, joiner(r))
		}
	}
	if hasJoiner("\xe2\x80") || hasJoiner("\xf0\x9f\x8f") {
		t.Error("a cut sequence at the end is taken for a joiner")
	}
}
