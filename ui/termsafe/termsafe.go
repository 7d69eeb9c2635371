// Package termsafe makes untrusted text safe to write to a terminal. It is
// the one sanitiser every string from the model, a tool or a server goes
// through on its way to the screen, in the TUI and in the -p printer.
//
// What Text guarantees of its result: valid UTF-8; no C0 control character
// other than newline and tab (a CR before LF is dropped, any other CR too);
// no DEL; no C1 control (U+0080–U+009F); no escape sequence of any kind (a
// CSI, OSC — hyperlinks (OSC 8), clipboard writes (OSC 52), titles —,
// DCS, SOS, PM, APC, or a two-byte ESC sequence is removed whole, in its
// 7-bit and its 8-bit C1 form); and no invisible character that changes how
// text reads: bidi embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069), directional marks, zero-width characters, tag characters
// and the other format characters (Unicode category Cf), and the line and
// paragraph separators, are shown visibly as ⟨U+XXXX⟩ instead; so are the
// letters and marks that draw nothing although they are not format
// characters (Hangul fillers, the braille blank, variation selectors, the
// combining grapheme joiner: see invisibleLetter). A zero-width joiner between
// two pictographs (an emoji sequence) is kept, and so is an emoji or text
// presentation selector after a pictograph or a keycap base.
//
// Line does the same and folds the result into one line. AppendRune is the
// per-rune rule for callers that sanitise a stream incrementally; it drops
// control characters (without parsing sequences, which cannot reach the
// terminal without their ESC) and marks invisible ones, like Text.
// Strings applies Text to every string inside a value (an event).
//
// The functions are pure and safe for concurrent use.
package termsafe

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Control characters with a meaning here.
const (
	esc = 0x1b
	bel = 0x07
	c1  = 0x80 // first C1 control
	csi = 0x9b // C1 control sequence introducer
	st  = 0x9c // C1 string terminator
	osc = 0x9d // C1 operating system command
	dcs = 0x90 // C1 device control string
	sos = 0x98 // C1 start of string
	pm  = 0x9e // C1 privacy message
	apc = 0x9f // C1 application program command
	zwj = 0x200d
)

// Safe reports whether s is already safe: Text(s) == s.
func Safe(s string) bool {
	prev := rune(0)
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b < 0x20 && b != '\n' && b != '\t' || b == 0x7f {
				return false
			}
			prev = rune(b)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return false
		}
		if class(prev, r, s[i+size:]) != keep {
			return false
		}
		prev = r
		i += size
	}
	return true
}

// Text returns s made safe to write to a terminal (see the package
// comment). Newlines and tabs are kept; a string that is already safe is
// returned as is.
func Text(s string) string {
	if Safe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	prev := rune(0)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == esc || r == csi || r == osc || r == dcs || r == sos || r == pm || r == apc {
			i = skipSequence(s, i)
			continue
		}
		i += size
		switch class(prev, r, s[i:]) {
		case keep:
			b.WriteRune(r) // U+FFFD for an invalid byte
		case mark:
			writeMark(&b, r)
		case drop:
			continue
		}
		prev = r
	}
	return b.String()
}

// Line returns s made safe like Text and folded into one line: every run
// of white space (newlines and tabs included) becomes one space, and the
// ends are trimmed.
func Line(s string) string {
	return strings.Join(strings.Fields(Text(s)), " ")
}

// AppendRune appends r to dst as Text would show it when it follows prev
// (the rune before it, 0 at the start): nothing for a control character
// other than newline and tab, ⟨U+XXXX⟩ for an invisible one, else r.
// Unlike Text it does not remove the rest of an escape sequence: without
// its ESC or C1 introducer, that rest is plain text.
func AppendRune(dst []byte, prev, r rune) []byte {
	switch class(prev, r, "") {
	case keep:
		return utf8.AppendRune(dst, r)
	case mark:
		return appendMark(dst, r)
	}
	return dst
}

// The ways a rune is shown.
const (
	keep = iota
	drop
	mark
)

// class says how r, after prev and before rest, is shown. A zero-width
// joiner is kept between two pictographs; with rest unknown (""), only
// after one.
func class(prev, r rune, rest string) int {
	switch {
	case r == '\n' || r == '\t':
		return keep
	case r < 0x20 || r == 0x7f || r >= c1 && r < 0xa0:
		return drop
	case r < 0xa0:
		return keep
	case r == zwj:
		if pictograph(prev) && (rest == "" || pictograph(firstRune(rest))) {
			return keep
		}
		return mark
	case unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 || r == 0x180e:
		return mark
	case r >= 0x34f && isInvisible(prev, r):
		return mark
	}
	return keep
}

// pictograph reports whether r is an emoji-like symbol that a zero-width
// joiner may glue to another (VS16, which ends an emoji presentation,
// counts as part of the one before it).
func pictograph(r rune) bool {
	return r == vs16 || r >= 0x1f000 && r < 0x20000 || r >= 0x2600 && r < 0x27c0 || unicode.Is(unicode.So, r)
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// writeMark writes the visible form of an invisible rune.
func writeMark(b *strings.Builder, r rune) {
	b.Write(appendMark(nil, r))
}

func appendMark(dst []byte, r rune) []byte {
	dst = append(dst, "⟨U+"...)
	hex := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	for n := len(hex); n < 4; n++ {
		dst = append(dst, '0')
	}
	dst = append(dst, hex...)
	return append(dst, "⟩"...)
}

// skipSequence returns the index just past the escape sequence that starts
// at s[i] (an ESC byte or a C1 introducer). A string sequence (OSC, DCS,
// SOS, PM, APC) that is never terminated loses only its introducer, so
// that the text after it stays visible.
func skipSequence(s string, i int) int {
	r, size := utf8.DecodeRuneInString(s[i:])
	j := i + size
	if r == esc {
		if j >= len(s) {
			return j
		}
		switch c := s[j]; {
		case c == '[':
			r = csi
		case c == ']':
			r = osc
		case c == 'P':
			r = dcs
		case c == 'X':
			r = sos
		case c == '^':
			r = pm
		case c == '_':
			r = apc
		case c >= 0x20 && c <= 0x2f: // nF: intermediates, then a final byte
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
				j++
			}
			if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
				j++
			}
			return j
		case c >= 0x30 && c <= 0x7e: // a two-byte sequence such as ESC 7, ESC c
			return j + 1
		default:
			return j // a lone ESC
		}
		j++
	}
	if r == csi {
		// parameters and intermediates, then a final byte @..~
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			j++
		}
		return j
	}
	if end, ok := stringEnd(s, j, r == osc); ok {
		return end
	}
	return j
}

// stringEnd finds the terminator of a control string starting at s[j]:
// ST (ESC \ or U+009C), or BEL for an OSC. It returns the index past it.
func stringEnd(s string, j int, isOSC bool) (int, bool) {
	for k := j; k < len(s); k++ {
		switch {
		case s[k] == bel && isOSC:
			return k + 1, true
		case s[k] == esc && k+1 < len(s) && s[k+1] == '\\':
			return k + 2, true
		case s[k] == 0xc2 && k+1 < len(s) && s[k+1] == st:
			return k + 2, true
		}
	}
	return 0, false
}
