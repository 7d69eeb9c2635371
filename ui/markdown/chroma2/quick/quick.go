// Package quick is chroma v2's quick.Highlight, backed by chroma v0.10
// (see the parent package).
package quick

import (
	"io"

	v0quick "github.com/alecthomas/chroma/quick"
)

// Highlight writes source highlighted as the language lexer, with the
// formatter and the style named, to w.
func Highlight(w io.Writer, source, lexer, formatter, style string) error {
	return v0quick.Highlight(w, source, lexer, formatter, style)
}
