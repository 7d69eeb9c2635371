package chat

import (
	"strings"

	"github.com/tick-agent/tick/ui/style"
)

// The transcript is laid out in parts, each rendered only when it reaches
// the screen. Most entries are one part (their cached lines, with the blank
// line above them). An assistant answer is the blank line above it (part
// 0), then one part per finished Markdown block (parts 1..n, see
// markdown.Renderer.Block) and finally its unfinished tail (part n+1): a
// long answer streaming in follow mode renders only the blocks that are on
// screen when a frame is drawn, and scrolling up renders the blocks it
// passes.

// anchor is a line of the transcript: line off of part part of entry idx.
type anchor struct{ idx, part, off int }

// partCount returns how many parts entry i has.
func (c *Model) partCount(i int) int {
	if e := c.entries[i]; e.kind == entryAssistant {
		return e.md.Blocks() + 2
	}
	return 1
}

// part returns the lines of part p of entry i at the current width,
// rendering them if needed.
func (c *Model) part(i, p int) []string {
	e := c.entries[i]
	if e.kind != entryAssistant {
		return c.lines(i)
	}
	if !e.visible {
		return nil
	}
	e.md.SetWidth(c.width) // the Markdown renderer keeps to the width itself
	n := e.md.Blocks()
	switch {
	case p == 0:
		if c.gap(i) {
			return c.blank
		}
		return nil
	case p <= n:
		return e.md.Block(p - 1)
	default:
		return e.md.Tail()
	}
}

// partLines returns the lines of the part a points at.
func (c *Model) partLines(a anchor) []string { return c.part(a.idx, a.part) }

// last returns the last part of the transcript; ok is false when it is
// empty.
func (c *Model) last() (a anchor, ok bool) {
	if len(c.entries) == 0 {
		return anchor{}, false
	}
	i := len(c.entries) - 1
	return anchor{idx: i, part: c.partCount(i) - 1}, true
}

// prev returns the part before a's (offset 0); ok is false at the first.
func (c *Model) prev(a anchor) (anchor, bool) {
	switch {
	case a.part > 0:
		return anchor{idx: a.idx, part: a.part - 1}, true
	case a.idx > 0:
		return anchor{idx: a.idx - 1, part: c.partCount(a.idx-1) - 1}, true
	}
	return a, false
}

// next returns the part after a's (offset 0); ok is false at the last.
func (c *Model) next(a anchor) (anchor, bool) {
	switch {
	case a.part+1 < c.partCount(a.idx):
		return anchor{idx: a.idx, part: a.part + 1}, true
	case a.idx+1 < len(c.entries):
		return anchor{idx: a.idx + 1}, true
	}
	return a, false
}

// clamp returns a moved onto a part that exists (the transcript may have
// been cleared, an answer's tail may have become a block).
func (c *Model) clamp(a anchor) anchor {
	if len(c.entries) == 0 {
		return anchor{}
	}
	if a.idx >= len(c.entries) {
		a, _ = c.last()
		return a
	}
	a.idx, a.part, a.off = max(a.idx, 0), max(a.part, 0), max(a.off, 0)
	if n := c.partCount(a.idx); a.part >= n {
		a.part = n - 1
	}
	return a
}

// View returns exactly c.height lines: the visible part of the transcript,
// with a "more below" marker on the last line when the view does not
// follow the bottom. It renders only parts that reach the screen.
//
// It keeps in c.shown where each line comes from (an anchor, idx -1 for
// none), so that a mouse copy finds the text of what it covers.
func (c *Model) View() []string {
	h := c.height
	var out []string
	c.shown = c.shown[:0]
	if c.follow {
		out = c.bottomLines(h)
	} else {
		out = c.linesFrom(c.top, h)
		if len(out) < h { // the content shrank (a resize): show the bottom
			c.shown = c.shown[:0]
			out = c.bottomLines(h)
		}
	}
	for len(out) < h {
		out = append(out, "")
	}
	for len(c.shown) < h {
		c.shown = append(c.shown, anchor{idx: -1})
	}
	if !c.follow && h > 1 {
		c.shown[h-1] = anchor{idx: -1}
		g := c.st.Glyphs
		out[h-1] = c.st.MoreBelow.Render(style.TruncateWidth(g.MoreBelow+" more below · end to follow", c.width, g.Ellipsis))
	}
	return out
}

// bottomLines returns the last h lines of the transcript (fewer if it is
// shorter).
func (c *Model) bottomLines(h int) []string {
	var parts [][]string        // from the bottom up
	at := make([]anchor, 0, 16) // the parts' anchors, likewise
	n := 0
	for a, ok := c.last(); ok && n < h; a, ok = c.prev(a) {
		l := c.partLines(a)
		parts = append(parts, l)
		at = append(at, a)
		n += len(l)
	}
	skip := max(n-h, 0) // lines of the topmost part above the screen
	out := make([]string, 0, min(n, h))
	for k := len(parts) - 1; k >= 0; k-- {
		l, a := parts[k], at[k]
		if k == len(parts)-1 {
			a.off = min(skip, len(l))
			l = l[a.off:]
		}
		out = append(out, l...)
		c.note(a, len(l))
	}
	return out
}

// linesFrom returns up to h lines starting at a.
func (c *Model) linesFrom(a anchor, h int) []string {
	out := make([]string, 0, h)
	if len(c.entries) == 0 {
		return out
	}
	a = c.clamp(a)
	for ok := true; ok && len(out) < h; a, ok = c.next(a) {
		l := c.partLines(a)
		a.off = min(a.off, len(l))
		l = l[a.off:]
		l = l[:min(len(l), h-len(out))]
		out = append(out, l...)
		c.note(a, len(l))
	}
	return out
}

// note records in c.shown that n lines from a are on screen.
func (c *Model) note(a anchor, n int) {
	for k := range n {
		c.shown = append(c.shown, anchor{idx: a.idx, part: a.part, off: a.off + k})
	}
}

// bottomAnchor returns the anchor of the first line on screen when
// following the bottom.
func (c *Model) bottomAnchor() anchor {
	n := 0
	for a, ok := c.last(); ok; a, ok = c.prev(a) {
		n += len(c.partLines(a))
		if n >= c.height {
			a.off = n - c.height
			return a
		}
	}
	return anchor{}
}

// atBottom reports whether the view from a reaches the end of the
// transcript.
func (c *Model) atBottom(a anchor) bool {
	if len(c.entries) == 0 {
		return true
	}
	a = c.clamp(a)
	n := 0
	for ok := true; ok; a, ok = c.next(a) {
		l := len(c.partLines(a))
		n += l - min(a.off, l)
		if n > c.height {
			return false
		}
	}
	return true
}

// ScrollUp moves the view n lines up and stops following.
func (c *Model) ScrollUp(n int) {
	if len(c.entries) == 0 {
		return
	}
	if c.follow {
		c.top = c.bottomAnchor()
	}
	c.follow = false
	a := c.clamp(c.top)
	a.off -= n
	for a.off < 0 {
		p, ok := c.prev(a)
		if !ok {
			a.off = 0
			break
		}
		p.off = a.off + len(c.partLines(p))
		a = p
	}
	c.top = a
	if c.atBottom(a) {
		c.follow = true
	}
}

// ScrollDown moves the view n lines down; reaching the bottom follows it
// again.
func (c *Model) ScrollDown(n int) {
	if c.follow || len(c.entries) == 0 {
		return
	}
	a := c.clamp(c.top)
	a.off += n
	for {
		l := len(c.partLines(a))
		p, ok := c.next(a)
		if a.off < l || !ok {
			break
		}
		p.off = a.off - l
		a = p
	}
	c.top = a
	if c.atBottom(a) {
		c.follow = true
	}
}

// ToTop shows the start of the transcript.
func (c *Model) ToTop() {
	if len(c.entries) == 0 {
		return
	}
	c.top = anchor{}
	c.follow = c.atBottom(c.top)
}

// ToBottom shows the end of the transcript and follows it.
func (c *Model) ToBottom() { c.follow = true }

// visibleRange returns the entries [from, to) that are on screen.
func (c *Model) visibleRange() (from, to int) {
	if len(c.entries) == 0 {
		return 0, 0
	}
	a := c.top
	if c.follow {
		a = c.bottomAnchor()
	}
	a = c.clamp(a)
	from, to = a.idx, a.idx+1
	n := 0
	for ok := true; ok && n < c.height; a, ok = c.next(a) {
		l := len(c.partLines(a))
		n += l - min(a.off, l)
		to = a.idx + 1
	}
	return from, to
}

// ToggleTool expands or collapses the lowest tool call's output or
// finished thought on screen (or else the last one of the transcript). It
// reports whether there was one.
func (c *Model) ToggleTool() bool {
	from, to := c.visibleRange()
	for _, r := range [][2]int{{to - 1, from}, {len(c.entries) - 1, 0}} {
		for i := r[0]; i >= r[1] && i >= 0; i-- {
			e := c.entries[i]
			switch {
			case e.kind == entryTool && e.tool.expandable():
				e.tool.expanded = !e.tool.expanded
			case e.kind == entryReasoning && !e.end.IsZero() && strings.TrimSpace(e.text) != "",
				e.kind == entryUser && style.LargePaste(e.text):
				e.open = !e.open
			default:
				continue
			}
			e.dirty = true
			return true
		}
	}
	return false
}

// expandable reports whether expanding the call shows more.
func (t *toolCall) expandable() bool {
	return t.output != "" || t.live != "" || t.diff != "" || len(t.children) > 0
}
