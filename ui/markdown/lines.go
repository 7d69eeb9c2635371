package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Lines returns the message as terminal lines no wider than Width cells:
// the finished blocks rendered as Markdown (each rendered once per width and
// cached), one blank line between blocks, then the unfinished tail as plain
// text wrapped to the width and indented like rendered text. Calling Lines
// again without Append, Finish or SetWidth in between returns the same slice
// without doing any work.
//
// The caller must not modify the returned slice; the Renderer never
// modifies a slice it has returned, so it stays valid after later calls.
func (r *Renderer) Lines() []string {
	if r.outValid {
		return r.out
	}
	w := r.width
	if r.doneWidth != w {
		r.doneWidth, r.doneCount, r.doneLines = w, 0, nil
	}
	for ; r.doneCount < len(r.blocks); r.doneCount++ {
		bl := r.blockLines(r.blocks[r.doneCount], w)
		if len(bl) == 0 {
			continue
		}
		if len(r.doneLines) > 0 {
			r.doneLines = append(r.doneLines, "")
		}
		r.doneLines = append(r.doneLines, bl...)
	}
	n := len(r.doneLines)
	if r.tailEmpty() {
		r.out = r.doneLines[:n:n] // later appends to doneLines never show through
	} else {
		out := make([]string, n, n+1+len(r.tail.lines)+len(r.partial.stable)+4)
		copy(out, r.doneLines)
		if n > 0 {
			out = append(out, "")
		}
		r.out = r.appendTail(out, w)
	}
	r.outValid = true
	return r.out
}

// blockLines returns b rendered at width w, rendering it only if it has not
// been rendered at w before (two widths are cached per block).
func (r *Renderer) blockLines(b *block, w int) []string {
	if l, ok := b.cached(w); ok {
		return l
	}
	r.renders++
	l := renderBlock(r.pool, r.style, b.src, b.dedent, w)
	b.store(w, l)
	return l
}

// renderBlock renders one finished block with glamour at width w and tidies
// the result; if glamour fails the block is shown as plain text.
func renderBlock(p *Pool, style Style, src string, dedent, w int) []string {
	md := p.plainFences(sanitize(src))
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

// tidy splits glamour's output into lines, drops its blank margin lines at
// the top and bottom, removes the invisible padding glamour puts at the end
// of every line, and makes sure no line is wider than w.
func tidy(out string, w int) []string {
	raw := strings.Split(out, "\n")
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
