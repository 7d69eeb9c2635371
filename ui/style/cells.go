package style

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Cells cuts and pads lines the way Bubble Tea's renderer draws
// them, so that what tick lays out is what lands on the screen.
//
// The renderer counts cells per codepoint (wcwidth, ansi.WcWidth) until
// the terminal reports grapheme clustering (mode 2027); then it counts per
// grapheme cluster (ansi.GraphemeWidth), as lipgloss and the rest of the
// ui always measure. The two disagree on emoji sequences: "👍🏽" is 2
// clusters wide and 4 wcwidth cells, "❤️" 2 and 1, "👨‍👩‍👧" 2 and 6 — and a
// terminal without mode 2027 (tmux 3.3 among them) follows neither rule
// throughout (it joins the family into 2 cells but leaves the thumb at 4).
// So under WcWidth, Fold rewrites those sequences, and only those, into a
// form every terminal draws at the width the layout gave them.
//
// The zero Cells is WcWidth: what Bubble Tea draws with until the terminal
// answers. A Cells is a value; the model holds the one for its terminal.
type Cells struct {
	Method ansi.Method
}

// ForModeReport is the Cells for a terminal's answer about mode 2027,
// decided as Bubble Tea's renderer decides it: any answer but "not
// recognised" or "permanently reset" turns grapheme clustering on.
func ForModeReport(v ansi.ModeSetting) Cells {
	if v == ansi.ModeReset || v == ansi.ModeSet || v == ansi.ModePermanentlySet {
		return Cells{Method: ansi.GraphemeWidth}
	}
	return Cells{Method: ansi.WcWidth}
}

// Fit folds s and cuts or pads it to exactly w cells.
func (c Cells) Fit(s string, w int) string {
	s = c.Fold(s)
	n := c.Method.StringWidth(s)
	switch {
	case n > w:
		s = c.Cut(s, w)
		n = c.Method.StringWidth(s) // a wide cell at the edge leaves one short
	case n == w:
		return s
	}
	return s + strings.Repeat(" ", max(w-n, 0))
}

// Cut cuts s (folded already) to at most w cells by c's measure. ansi's
// Truncate measures an ASCII character alone and the marks after it as
// nothing, so under GraphemeWidth a keycap ("1️⃣") or a digit with VS16
// at the edge, 2 cells wide, came out a cell over w: s is cut again,
// shorter by what it went over, until it fits.
func (c Cells) Cut(s string, w int) string {
	w = max(w, 0)
	t := c.Method.Truncate(s, w, "")
	for k := w; k > 0; {
		over := c.Method.StringWidth(t) - w
		if over <= 0 {
			return t
		}
		k -= over
		t = c.Method.Truncate(s, max(k, 0), "")
	}
	return t
}

// Fold returns s with every emoji sequence the renderer would measure
// unlike the layout (see Cells) rewritten to its first emoji, without
// variation selectors, skin tones, tags or what a zero-width joiner adds,
// padded with spaces to the cells the layout counted ("❤️" becomes "❤ ",
// "👍🏽" "👍", "👨‍👩‍👧" "👨"). The width of s by the layout's measure
// (ansi.StringWidth) does not change. Under GraphemeWidth, and for any s
// without such a sequence (nearly every line), s comes back as it is.
func (c Cells) Fold(s string) string {
	if c.Method == ansi.GraphemeWidth || !hasJoiner(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	var state byte
	for len(s) > 0 {
		seq, w, n, next := ansi.DecodeSequence(s, state, nil)
		state = next
		if n == 1 && w == 1 && len(s) > 1 && s[1] >= 0xc0 {
			// The decoder takes printable ASCII alone; a keycap ("1️⃣")
			// is the digit and what follows it, as StringWidth counts it.
			seq, w = ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
			n = len(seq)
		}
		s = s[n:]
		if w == 0 || !hasJoiner(seq) || ansi.StringWidthWc(seq) == w && !strings.ContainsRune(seq, zwj) {
			b.WriteString(seq) // an escape sequence, or a cluster both measures agree on
			continue
		}
		base := foldCluster(seq)
		if bw := ansi.StringWidthWc(base); bw <= w {
			b.WriteString(base)
			b.WriteString(strings.Repeat(" ", w-bw))
		} else {
			b.WriteString(strings.Repeat("?", w)) // no narrower form of it
		}
	}
	return b.String()
}

// zwj is the zero-width joiner that glues emoji into one picture.
const zwj = '\u200d'

// foldCluster keeps a cluster's runes up to its first zero-width joiner,
// dropping the variation selectors, skin-tone modifiers and tag characters
// among them.
func foldCluster(seq string) string {
	var b strings.Builder
	for i, r := range seq {
		switch {
		case r == zwj:
			return b.String()
		case i > 0 && joiner(r):
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// joiner reports whether r is one of the runes that build an emoji
// sequence whose width terminals disagree on: the zero-width joiner,
// variation selectors 15 and 16, the skin-tone modifiers, the regional
// indicators of flags, and the tag characters of subdivision flags.
func joiner(r rune) bool {
	switch {
	case r == zwj, r == '\ufe0e', r == '\ufe0f':
		return true
	case r >= 0x1f3fb && r <= 0x1f3ff: // skin tones
		return true
	case r >= 0x1f1e6 && r <= 0x1f1ff: // regional indicators
		return true
	case r >= 0xe0020 && r <= 0xe007f: // tags
		return true
	}
	return false
}

// hasJoiner reports whether s holds a joiner rune (see joiner), by their
// UTF-8 bytes: a plain line costs one pass over its bytes and no decoding
// (the box-drawing glyphs tick draws share the joiner's lead byte 0xe2).
func hasJoiner(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		switch s[i] {
		case 0xe2: // U+200D
			if s[i+1] == 0x80 && s[i+2] == 0x8d {
				return true
			}
		case 0xef: // U+FE0E, U+FE0F
			if s[i+1] == 0xb8 && (s[i+2] == 0x8e || s[i+2] == 0x8f) {
				return true
			}
		case 0xf0: // U+1F1E6..U+1F1FF, U+1F3FB..U+1F3FF
			if i+3 < len(s) && s[i+1] == 0x9f &&
				(s[i+2] == 0x87 && s[i+3] >= 0xa6 || s[i+2] == 0x8f && s[i+3] >= 0xbb) {
				return true
			}
		case 0xf3: // U+E0020..U+E007F
			if i+3 < len(s) && s[i+1] == 0xa0 && (s[i+2] == 0x80 && s[i+3] >= 0xa0 || s[i+2] == 0x81) {
				return true
			}
		}
	}
	return false
}
