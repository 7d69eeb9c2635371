package markdown

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/ui/termsafe"
)

// The logical text of a message is what a copy of its rendered lines
// gives: the words the reader sees, but not laid out for the pane. A
// paragraph is one line however it was wrapped, a quote has no bars, code
// is as it was written (tabs kept, no margin), and no line has the
// document's margin. Inline marks (**, `, #) are gone as they are on the
// screen; bullets, numbers and table rules stay, as text.

// LogicalBlock returns the logical text of finished block i (0 <= i <
// Blocks()), "" when i is out of range or the block shows nothing. Every
// character of it is shown by Block(i), in the same order, at any width
// (Block only adds margins, bars and line breaks), which lets a caller
// find where each character is on the screen. The block is rendered once
// more, unwrapped and undecorated; nothing is cached, as this is asked for
// when text is copied.
func (r *Renderer) LogicalBlock(i int) string {
	if i < 0 || i >= len(r.blocks) {
		return ""
	}
	b := r.blocks[i]
	md := termsafe.Text(b.src(r.text)) // tabs kept
	if b.dedent > 0 {
		md = dedentText(md, b.dedent)
	}
	out, err := r.pool.render(r.style, plainWidth, md)
	if err != nil { // Block showed the source as plain text
		return trimBlank(md)
	}
	return trimBlank(xansi.Strip(strings.Join(out, "\n")))
}

// LogicalTail returns the logical text of the unfinished tail (what Tail
// shows, unwrapped): its lines as they arrived, made safe, tabs kept.
func (r *Renderer) LogicalTail() string {
	if r.tailEmpty() {
		return ""
	}
	return trimBlank(termsafe.Text(string(r.text[r.tailStart:])))
}

// plainWidth is the width the Pool is asked for to render logical text:
// no wrapping, and nothing drawn that only lays text out: no margins, no
// quote bars, code as written (no margin, no highlighting), inline code
// and H1 headings without their padding. Bullets, numbers, marks, links
// and table rules stay as the style shows them.
const plainWidth = 0

// trimBlank drops the blank lines around s and the trailing spaces of its
// lines.
func trimBlank(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}
