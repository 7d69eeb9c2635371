package markdown

import (
	"bytes"
	"strings"
)

// block is one finished Markdown block: where its source lies in the
// Renderer's text (the text is kept once; a block copies it only while it
// is rendered) and its rendered lines for the two most recent widths.
//
// A long code fence is cut into chunks of fenceChunk lines, each a block
// of its own (so that only the chunks on screen are ever rendered): a
// chunk other than the first repeats the fence's opening line (open) and
// joins the block before it without a blank line (cont); a chunk other
// than the last is closed for rendering (close).
type block struct {
	start, end int
	open       string // the fence's opening line, put before a continuation chunk
	close      string // a closing fence, put after a chunk the fence goes on after
	cont       bool   // a continuation chunk: no blank line before it
	dedent     int    // leading columns removed before rendering and added back after (list continuations)

	widths [2]int // 0 = empty slot
	lines  [2][]string
	next   int // slot to overwrite next
}

// fenceChunk is the most lines of a code fence one block holds.
const fenceChunk = 64

// src returns b's Markdown, from text (the Renderer's).
func (b *block) src(text []byte) string {
	return b.open + string(text[b.start:b.end]) + b.close
}

// lineCount returns how many lines b caches, for the render cache budget.
func (b *block) lineCount() int { return len(b.lines[0]) + len(b.lines[1]) }

// drop forgets b's rendered lines.
func (b *block) drop() { b.widths, b.lines = [2]int{}, [2][]string{} }

func (b *block) cached(width int) ([]string, bool) {
	for i, w := range b.widths {
		if w == width {
			return b.lines[i], true
		}
	}
	return nil, false
}

func (b *block) store(width int, lines []string) {
	b.widths[b.next], b.lines[b.next] = width, lines
	b.next = 1 - b.next
}

// scanLines examines every line completed since the last call, once; from
// is where the new text starts (no newline lies between scan and from).
//
// Rules: outside a code fence a blank line finishes the block before it
// (blank lines between blocks belong to no block); a line opening a fence
// (``` or ~~~, any indentation) starts a fence that only its closing line
// ends, and that closing line finishes the block (which also holds any
// lines before the fence). Everything not finished is the tail.
func (r *Renderer) scanLines(from int) {
	for {
		i := bytes.IndexByte(r.text[from:], '\n')
		if i < 0 {
			return
		}
		start, end := r.scan, from+i+1
		from = end
		r.scan = end
		r.scanLine(start, end)
	}
}

// scanLine handles the complete line text[start:end] (end is past its '\n').
func (r *Renderer) scanLine(start, end int) {
	line := r.text[start : end-1]
	if r.inFence {
		if closesFence(line, r.fenceChar, r.fenceLen) {
			r.inFence = false
			r.finishBlock(end)
			return
		}
		if r.fenceLines++; r.fenceLines >= fenceChunk {
			r.finishChunk(end)
		}
		return
	}
	if isBlank(line) {
		if r.hasContent {
			r.finishBlock(start)
		}
		r.tailStart = end
		return
	}
	r.hasContent = true
	if c, n, ok := opensFence(line); ok {
		r.inFence, r.fenceChar, r.fenceLen = true, c, n
		r.fenceOpen, r.fenceLines = string(line)+"\n", 0
	}
}

// finishChunk makes text[tailStart:end], the fence's lines so far, a
// finished block although the fence goes on (see block).
func (r *Renderer) finishChunk(end int) {
	indent := r.fenceOpen[:len(r.fenceOpen)-len(trimLeftSpace([]byte(r.fenceOpen)))]
	closing := indent + strings.Repeat(string(r.fenceChar), r.fenceLen) + "\n"
	r.finishBlock(end)
	r.blocks[len(r.blocks)-1].close = closing
	r.fenceLines = 0
	r.chunked = true
}

// finishTail turns the whole tail into a block if it holds anything but
// blank space, and resets the fence state.
func (r *Renderer) finishTail() {
	if r.hasContent || !isBlank(r.text[r.tailStart:]) {
		r.finishBlock(len(r.text))
	}
	r.tailStart, r.scan = len(r.text), len(r.text)
	r.hasContent, r.inFence, r.chunked = false, false, false
	r.lastCR = false
}

// finishBlock makes text[tailStart:end] a finished block.
func (r *Renderer) finishBlock(end int) {
	b := &block{start: r.tailStart, end: end}
	r.tailStart = end
	r.hasContent = r.inFence // a chunked fence goes on
	if r.chunked {           // the rest of a fence cut into chunks
		prev := r.blocks[len(r.blocks)-1]
		b.open, b.cont, b.dedent = r.fenceOpen, true, prev.dedent
		r.chunked = r.inFence
	} else {
		r.classify(b)
	}
	r.blocks = append(r.blocks, b)
}

// classify keeps loose lists looking sane: a block indented under a list
// item (a continuation paragraph or code block after a blank line) is
// rendered without that indentation and then shifted right by it, instead
// of turning into an indented code block or losing its indentation.
func (r *Renderer) classify(b *block) {
	first, minIndent, lastItem := -1, -1, 0
	firstIsItem := false
	fence, fc, fn := false, byte(0), 0
	for l := range strings.Lines(string(r.text[b.start:b.end])) {
		line := []byte(strings.TrimSuffix(l, "\n"))
		if isBlank(line) {
			continue
		}
		ind := indentCols(line)
		item := 0
		switch {
		case fence:
			fence = !closesFence(line, fc, fn)
		case ind <= 3:
			item = listItemContent(line)
			fc, fn, fence = opensFence(line)
		default:
			fc, fn, fence = opensFence(line)
		}
		if first < 0 {
			first, firstIsItem = ind, item > 0
		}
		if minIndent < 0 || ind < minIndent {
			minIndent = ind
		}
		if item > 0 {
			lastItem = item
		}
	}
	switch {
	case first >= 2 && r.listContent > 0:
		b.dedent = min(minIndent, r.listContent)
	case firstIsItem:
		r.listContent = lastItem
	default:
		r.listContent = 0
	}
}

// isBlank reports whether b holds only spaces, tabs and newlines.
func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' {
			return false
		}
	}
	return true
}

// indentCols is the width of b's leading whitespace, tabs stopping at
// multiples of 4.
func indentCols(b []byte) int {
	col := 0
	for _, c := range b {
		switch c {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return col
		}
	}
	return col
}

func trimLeftSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// opensFence reports whether line opens a fenced code block: a run of at
// least three backticks or tildes after any indentation; a backtick fence's
// info string may not contain a backtick (that is inline code).
func opensFence(line []byte) (c byte, n int, ok bool) {
	t := trimLeftSpace(line)
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, false
	}
	c = t[0]
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, false
	}
	if c == '`' && bytes.IndexByte(t[n:], '`') >= 0 {
		return 0, 0, false
	}
	return c, n, true
}

// closesFence reports whether line closes a fence opened with n c's: at
// least n c's after any indentation and nothing but blanks after them.
func closesFence(line []byte, c byte, n int) bool {
	t := trimLeftSpace(line)
	k := 0
	for k < len(t) && t[k] == c {
		k++
	}
	return k >= n && isBlank(t[k:])
}

// listItemContent returns the column where a list item's content starts if
// line starts a list item ("- ", "* ", "+ ", "1. ", "1) "), else 0.
func listItemContent(line []byte) int {
	ind := indentCols(line)
	t := trimLeftSpace(line)
	if isThematicBreak(t) {
		return 0
	}
	w := 0
	switch {
	case len(t) > 0 && (t[0] == '-' || t[0] == '*' || t[0] == '+'):
		w = 1
	default:
		for w < len(t) && w < 9 && t[w] >= '0' && t[w] <= '9' {
			w++
		}
		if w == 0 || w >= len(t) || (t[w] != '.' && t[w] != ')') {
			return 0
		}
		w++
	}
	rest := t[w:]
	if len(rest) > 0 && rest[0] != ' ' && rest[0] != '\t' {
		return 0
	}
	sp := indentCols(rest)
	if sp == 0 || sp > 4 || isBlank(rest) {
		sp = 1
	}
	return ind + w + sp
}

// isThematicBreak reports whether t (without indentation) is a thematic
// break such as "---", "***" or "* * *".
func isThematicBreak(t []byte) bool {
	if len(t) == 0 || (t[0] != '-' && t[0] != '*' && t[0] != '_') {
		return false
	}
	n := 0
	for _, c := range t {
		switch c {
		case t[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}
