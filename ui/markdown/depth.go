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

// maxInlineWork bounds the work goldmark's inline parser may do on a
// block, in its own quadratic terms: an unclosed link destination is
// looked for to the end of the paragraph from every "](" (links times
// bytes), and every emphasis delimiter is matched against those before it
// (delimiters squared). "[a](" or "*a_" repeated over a megabyte took
// minutes; at this bound the worst takes a fraction of a second.
const maxInlineWork = 1 << 26

// errTooDeep is why a block nested deeper than maxNesting, or asking
// more than maxInlineWork, is not parsed.
var errTooDeep = errors.New("nested deeper or costlier than tick renders")

// tooDeep reports whether a line of md starts with more than maxNesting
// bytes of container marks, or md's inlines would cost more than
// maxInlineWork to parse.
func tooDeep(md string) bool {
	links := strings.Count(md, "](")
	delims := strings.Count(md, "*") + strings.Count(md, "_")
	if links*len(md) > maxInlineWork || delims*delims > maxInlineWork {
		return true
	}
	for l := range strings.Lines(md) {
		if len(l) > maxNesting && len(l)-len(strings.TrimLeft(l, " \t>-*+.)0123456789")) > maxNesting {
			return true
		}
	}
	return false
}
