package termsafe

import "unicode"

// Presentation selectors: VS15 (text) and VS16 (emoji). After a
// pictograph or a keycap base they choose how it is drawn and are kept.
const (
	vs15 = 0xfe0e
	vs16 = 0xfe0f
)

// invisibleLetter reports whether r is one of the letters, marks and
// symbols that are not format characters (category Cf) but draw nothing,
// or only a blank, in common terminal fonts: a name or a command can hide
// behind them, or look empty when it is not. Text shows them as
// ⟨U+XXXX⟩, like the bidi controls.
func invisibleLetter(r rune) bool {
	switch {
	case r == 0x034f: // combining grapheme joiner
	case r == 0x115f || r == 0x1160: // Hangul choseong / jungseong fillers
	case r == 0x17b4 || r == 0x17b5: // Khmer inherent vowels
	case r >= 0x180b && r <= 0x180d || r == 0x180f: // Mongolian free variation selectors
	case r == 0x2800: // braille pattern blank
	case r == 0x3164: // Hangul filler
	case r >= 0xfe00 && r <= 0xfe0f: // variation selectors 1–16
	case r == 0xffa0: // halfwidth Hangul filler
	case r == 0x1d159: // musical symbol null notehead
	case r >= 0xe0100 && r <= 0xe01ef: // variation selectors 17–256
	default:
		return false
	}
	return true
}

// isInvisible reports whether r, after prev, is an invisible letter to
// show visibly. VS15 and VS16 choose how a symbol is drawn: they are kept,
// once, after a pictograph, a symbol or punctuation mark beyond ASCII (➡️,
// ‼️, ↔️), ℹ, and a keycap base (a digit, # or *); after a letter, a space
// or another selector they hide themselves and are shown.
func isInvisible(prev, r rune) bool {
	if !invisibleLetter(r) {
		return false
	}
	if r == vs15 || r == vs16 {
		return !presentable(prev)
	}
	return true
}

// presentable reports whether a presentation selector may follow r.
func presentable(r rune) bool {
	switch {
	case r == vs15 || r == vs16:
		return false
	case r >= '0' && r <= '9' || r == '#' || r == '*' || r == 0x2139:
		return true
	case r < 0x80:
		return false
	}
	return pictograph(r) || unicode.IsSymbol(r) || unicode.IsPunct(r)
}
