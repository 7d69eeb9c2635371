package markdown

import (
	"errors"
	"strings"
)

// maxNesting is the longest run of container marks (indentation, block
// quote marks, list markers) a line of a block may start with for the
// block to be parsed as Markdown. goldmark checks every open container at
// every line, each check trimming the line's indentation: time cubic in
// the nesting (4,000 nested list items, 80 KB, took minutes). 128 bytes
// are 64 lists nested with two-space indents or 128 nested quotes.
const maxNesting = 128

// errTooDeep is why a block nested deeper than maxNesting is not parsed.
var errTooDeep = errors.New("nested deeper than tick renders")

// tooDeep reports whether a line of md starts with more than maxNesting
// bytes of container marks.
func tooDeep(md string) bool {
	for l := range strings.Lines(md) {
		if len(l) > maxNesting && len(l)-len(strings.TrimLeft(l, " \t>-*+.)0123456789")) > maxNesting {
			return true
		}
	}
	return false
}
