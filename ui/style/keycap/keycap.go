// Package keycap hides keycaps ("1️⃣", "#️⃣", "*️⃣") and digits with VS16
// ("7️") from ansi's width functions for as long as text is wrapped, and
// shows them again after.
//
// ansi's width functions (and so its Wrap and Truncate, and the Markdown
// renderer's word wrap) take a printable ASCII character as one cell on its own and
// the marks after it as none. A keycap ("1️⃣", "#️⃣", "*️⃣") or a digit
// with VS16 ("7️") is one cluster two cells wide, as StringWidth and the
// terminal count it: a line holding them was wrapped a cell too long per
// keycap, and its end cut off the screen. Wrapping text that holds them
// swaps their ASCII base for a stand-in outside ASCII, which the measure
// clusters with its marks, and swaps it back after.
package keycap

import "strings"

// standIn is added to a keycap's ASCII base to make its stand-in: a
// character of Supplementary Private Use Area-A, one cell wide.
const standIn = 0xf0000

// Hide returns s with the base of every keycap or digit with VS16
// swapped for its stand-in, and whether it swapped any. Text with escape
// sequences (styled) or already holding a stand-in is left as it is.
func Hide(s string) (string, bool) {
	if !strings.Contains(s, "\ufe0f") || strings.IndexByte(s, 0x1b) >= 0 || hasStandIn(s) {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	swapped := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; keycapBase(c) && strings.HasPrefix(s[i+1:], "\ufe0f") {
			b.WriteRune(standIn + rune(c))
			swapped = true
			continue
		}
		b.WriteByte(s[i])
	}
	if !swapped {
		return s, false
	}
	return b.String(), true
}

// Show undoes Hide: every stand-in becomes its base again
// (escape sequences a renderer added around them are kept).
func Show(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= standIn && r < standIn+0x80 {
			return r - standIn
		}
		return r
	}, s)
}

// keycapBase reports whether c is an ASCII character a keycap is built on.
func keycapBase(c byte) bool { return c >= '0' && c <= '9' || c == '#' || c == '*' }

// hasStandIn reports whether s holds a stand-in already (their UTF-8
// starts F3 B0 80 or F3 B0 81).
func hasStandIn(s string) bool {
	return strings.Contains(s, "\xf3\xb0\x80") || strings.Contains(s, "\xf3\xb0\x81")
}
