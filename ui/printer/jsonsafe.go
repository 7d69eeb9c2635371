package printer

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tick-agent/tick/ui/termsafe"
)

// escapeUnsafe returns the JSON text b with every character a terminal
// would act on or that hides itself written as a \u escape: DEL, the C1
// controls (encoding/json escapes only C0) and the characters termsafe
// shows visibly (bidi controls, zero-width and invisible letters). Such
// characters occur only inside strings, where the escape decodes to the
// same text: the data is unchanged, only its bytes are safe to print. b is
// returned as is when it holds none.
func escapeUnsafe(b []byte) []byte {
	if termsafe.Safe(string(b)) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	prev := rune(0)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 || string(termsafe.AppendRune(nil, prev, r)) == string(r) {
			out = append(out, b[i:i+size]...)
		} else {
			out = appendEscape(out, r)
		}
		prev = r
		i += size
	}
	return out
}

// appendEscape appends r as a JSON \u escape (a surrogate pair above the
// basic plane).
func appendEscape(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	units := []uint16{uint16(r)}
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		units = []uint16{uint16(hi), uint16(lo)}
	}
	for _, u := range units {
		dst = append(dst, '\\', 'u', hex[u>>12&0xf], hex[u>>8&0xf], hex[u>>4&0xf], hex[u&0xf])
	}
	return dst
}
