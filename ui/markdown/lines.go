package markdown

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Lines returns the message as terminal lines no wider than Width cells:
// the finished blocks rendered as Markdown (each rendered once per width and
// cached), one blank line between blocks, then the unfinished tail as plain
// text wrapped to the width and indented like rendered text. It is the
// concatenation of Block(0), ..., Block(Blocks()-1) and Tail(). Calling
// Lines again without Append, Finish or SetWidth in between returns the same
// slice without doing any work.
//
// Lines renders every finished block; a caller that shows only part of a
// long message should lay out Block and Tail itself and ask only for what
// it shows.
//
// The caller must not modify the returned slice; the Renderer never
// modifies a slice it has returned, so it stays valid after later calls.
func (r *Renderer) Lines() []string {
	if r.outValid {
		return r.out
	}
	if r.doneWidth != r.width {
		r.doneWidth, r.doneCount, r.doneLines = r.width, 0, nil
	}
	for ; r.doneCount < len(r.blocks); r.doneCount++ {
		r.doneLines = append(r.doneLines, r.Block(r.doneCount)...)
	}
	n := len(r.doneLines)
	if r.tailEmpty() {
		r.out = r.doneLines[:n:n] // later appends to doneLines never show through
	} else { // as Tail, without building its slice too
		out := make([]string, n, n+1+len(r.tail.lines)+len(r.partial.stable)+4)
		copy(out, r.doneLines)
		if n > 0 && !r.chunked { // some block shows something; a chunked fence goes on
			out = append(out, "")
		}
		r.out = r.appendTail(out, r.width)
	}
	r.outValid = true
	return r.out
}

// Blocks returns how many blocks of the message are finished. A finished
// block never changes; Append and Finish only add blocks after it.
func (r *Renderer) Blocks() int { return len(r.blocks) }

// Block returns finished block i (0 <= i < Blocks()) rendered as Markdown
// at Width, preceded by one blank line when an earlier block shows
// anything, so that the blocks and the tail, one after the other, are
// Lines. A block may render to no lines at all (an HTML comment). Each
// block is rendered the first time it is asked for at a width
// (the two most recent widths are kept); deciding the blank line may render
// the first blocks of the message too, up to the first one that shows
// something. Block returns nil when i is out of range.
//
// The caller must not modify the returned slice.
func (r *Renderer) Block(i int) []string {
	if i < 0 || i >= len(r.blocks) {
		return nil
	}
	b := r.blocks[i]
	l := r.blockLines(b, r.width)
	if len(l) == 0 {
		return nil
	}
	if !b.cont && r.shownBefore(i) {
		return l
	}
	return l[1:]
}

// Tail returns the unfinished tail as plain text wrapped to Width and
// indented like rendered text, preceded by one blank line when a finished
// block shows anything; nil when the tail is empty. It renders nothing
// except, at most, the blocks needed to decide the blank line (see
// Block). Calling Tail again without Append, Finish or SetWidth in between
// returns the same slice.
//
// The caller must not modify the returned slice.
func (r *Renderer) Tail() []string {
	if r.tailValid {
		return r.tailOut
	}
	var out []string
	if !r.tailEmpty() {
		out = make([]string, 1, 2+len(r.tail.lines)+len(r.partial.stable)+4)
		out = r.appendTail(out, r.width)
		if r.chunked || !r.shownBefore(len(r.blocks)) { // a chunked fence goes on without a gap
			out = out[1:]
		}
	}
	r.tailOut, r.tailValid = out, true
	return out
}

// Renders returns how many times r has rendered a block, for
// tests and diagnostics: the expensive work that Block and Lines do only
// once per block and width.
func (r *Renderer) Renders() int { return r.renders }

// shownBefore reports whether one of the blocks before block i shows
// anything at the current width. It renders blocks from the start of the
// message only until it finds one that does (usually the first).
func (r *Renderer) shownBefore(i int) bool {
	l := &r.lead
	if l.width != r.width {
		*l = leadCache{width: r.width, first: -1}
	}
	for l.first < 0 && l.next < i {
		if len(r.blockLines(r.blocks[l.next], r.width)) > 0 {
			l.first = l.next
		}
		l.next++
	}
	return l.first >= 0 && l.first < i
}

// leadCache remembers, for one width, which of the first blocks show
// anything: blocks[:next] were rendered, and first is the first of them
// that shows something, or -1.
type leadCache struct {
	width, next, first int
}

// blockLines returns b rendered at width w with an empty first line (the
// blank line that separates it from the block before, which Block drops
// when there is none), or nil when b shows nothing. b is rendered only if
// it has not been rendered at w before (two widths are cached per block).
func (r *Renderer) blockLines(b *block, w int) []string {
	if l, ok := b.cached(w); ok {
		return l
	}
	r.renders++
	var l []string
	if rendered := renderBlock(r.pool, r.style, b.src(r.text), b.dedent, w); len(rendered) > 0 {
		l = make([]string, len(rendered)+1)
		copy(l[1:], rendered)
	}
	r.cacheLines(b, func() { b.store(w, l) })
	return l
}

// maxCachedLines bounds the rendered lines a Renderer keeps (a few
// screens): rendering a block again costs little, holding every line of a
// long answer costs many times its text (escape sequences of highlighted
// code). Only blocks that reach the screen are rendered, and the ones on
// screen are always the most recently rendered, so they stay.
const maxCachedLines = 4096

// cacheLines stores rendered lines in b (store) and keeps the lines of
// all blocks within maxCachedLines, forgetting those rendered longest ago
// (b, just rendered, stays whatever its size).
func (r *Renderer) cacheLines(b *block, store func()) {
	r.cachedLines -= b.lineCount()
	store()
	r.cachedLines += b.lineCount()
	if i := slices.Index(r.rendered, b); i >= 0 {
		r.rendered = slices.Delete(r.rendered, i, i+1)
	}
	r.rendered = append(r.rendered, b)
	n := 0
	for r.cachedLines > maxCachedLines && n < len(r.rendered)-1 {
		old := r.rendered[n]
		r.cachedLines -= old.lineCount()
		old.drop()
		n++
	}
	if n > 0 {
		r.rendered = slices.Delete(r.rendered, 0, n)
	}
}

// renderBlock renders one finished block at width w and tidies the
// result; if rendering fails the block is shown as plain text.
func renderBlock(p *Pool, style Style, src string, dedent, w int) []string {
	md := sanitize(src)
	if dedent > 0 {
		md = dedentText(md, dedent)
		if w-dedent < 20 { // too narrow to shift; render at the left edge
			dedent = 0
		}
	}
	inner := w - dedent
	var lines []string
	if out, err := p.render(style, inner, md); err != nil {
		pad, limit := geometry(inner, style.margin())
		for l := range strings.Lines(strings.TrimRight(md, "\n")) {
			lines = appendPlain(lines, strings.TrimSuffix(l, "\n"), pad, limit)
		}
	} else {
		lines = tidy(out, inner)
	}
	if dedent > 0 {
		pad := strings.Repeat(" ", dedent)
		for i, l := range lines {
			if l != "" {
				lines[i] = pad + l
			}
		}
	}
	return lines
}

// tidy drops the blank lines at the top and bottom of rendered lines and
// any invisible end of a line, and makes sure no line is wider than w.
func tidy(raw []string, w int) []string {
	first, last := -1, -1
	for i, l := range raw {
		t, visible := trimLine(l)
		if !visible {
			t = ""
		} else {
			if first < 0 {
				first = i
			}
			last = i
		}
		raw[i] = t
	}
	if first < 0 {
		return nil
	}
	lines := make([]string, 0, last-first+1)
	for _, l := range raw[first : last+1] {
		lines = fitLine(lines, l, w)
	}
	return lines
}

// fitLine appends l to dst, hard-wrapped if it is wider than w; every piece
// starts with the styles in effect where it was cut and ends with a reset,
// so each line stands on its own.
func fitLine(dst []string, l string, w int) []string {
	if ansi.StringWidth(l) <= w {
		return append(dst, l)
	}
	var carry strings.Builder
	for piece := range strings.Lines(ansi.Hardwrap(l, w, true)) {
		piece = strings.TrimSuffix(piece, "\n")
		styled := carry.String() + piece
		collectSGR(&carry, piece)
		if carry.Len() > 0 {
			styled += "\x1b[m"
		}
		if ansi.StringWidth(styled) > w {
			styled = ansi.Truncate(styled, w, "")
		}
		dst = append(dst, styled)
	}
	return dst
}

// dedentText removes up to n leading spaces from every line of s.
func dedentText(s string, n int) string {
	var b strings.Builder
	b.Grow(len(s))
	for l := range strings.Lines(s) {
		k := 0
		for k < n && k < len(l) && l[k] == ' ' {
			k++
		}
		b.WriteString(l[k:])
	}
	return b.String()
}
