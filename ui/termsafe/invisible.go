package termsafe

import "unicode"

// invisible are letters, marks and symbols that are not format characters
// (category Cf) but draw nothing, or only a blank, in common terminal
// fonts: a name or command can hide behind them, or look empty when it is
// not. Text shows them as ⟨U+XXXX⟩, like the bidi controls.
var invisible = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x034f, Hi: 0x034f, Stride: 1}, // combining grapheme joiner
		{Lo: 0x115f, Hi: 0x1160, Stride: 1}, // Hangul choseong / jungseong fillers
		{Lo: 0x17b4, Hi: 0x17b5, Stride: 1}, // Khmer inherent vowels
		{Lo: 0x180b, Hi: 0x180d, Stride: 1}, // Mongolian free variation selectors
		{Lo: 0x180f, Hi: 0x180f, Stride: 1}, // Mongolian free variation selector four
		{Lo: 0x2800, Hi: 0x2800, Stride: 1}, // braille pattern blank
		{Lo: 0x3164, Hi: 0x3164, Stride: 1}, // Hangul filler
		{Lo: 0xfe00, Hi: 0xfe0f, Stride: 1}, // variation selectors 1–16
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1}, // halfwidth Hangul filler
	},
	R32: []unicode.Range32{
		{Lo: 0x1d159, Hi: 0x1d159, Stride: 1}, // musical symbol null notehead
		{Lo: 0xe0100, Hi: 0xe01ef, Stride: 1}, // variation selectors 17–256
	},
}

// Presentation selectors: VS15 (text) and VS16 (emoji). After a
// pictograph or a keycap base they choose how it is drawn and are kept.
const (
	vs15 = 0xfe0e
	vs16 = 0xfe0f
)

// isInvisible reports whether r, after prev, is an invisible letter to
// show visibly. VS15 and VS16 are kept after a pictograph, and after a
// digit, # or * (a keycap sequence), once.
func isInvisible(prev, r rune) bool {
	if !unicode.Is(invisible, r) {
		return false
	}
	if r == vs15 || r == vs16 {
		return prev == vs15 || prev == vs16 || !(pictograph(prev) || prev >= '0' && prev <= '9' || prev == '#' || prev == '*')
	}
	return true
}
