package ui

import (
	"github.com/charmbracelet/x/ansi"
)

// view returns exactly c.height lines: the visible part of the transcript,
// with a "more below" marker on the last line when the view does not
// follow the bottom. It renders only entries that reach the screen.
func (c *chat) view() []string {
	h := c.height
	var out []string
	if c.follow {
		out = c.bottomLines(h)
	} else {
		out = c.linesFrom(c.top, h)
		if len(out) < h { // the content shrank (a resize): show the bottom
			out = c.bottomLines(h)
		}
	}
	for len(out) < h {
		out = append(out, "")
	}
	if !c.follow && h > 1 {
		g := c.st.Glyphs
		out[h-1] = c.st.MoreBelow.Render(ansi.Truncate(g.MoreBelow+" more below · end to follow", c.width, g.Ellipsis))
	}
	return out
}

// bottomLines returns the last h lines of the transcript (fewer if it is
// shorter).
func (c *chat) bottomLines(h int) []string {
	n, i := 0, len(c.entries)-1
	for ; i >= 0; i-- {
		n += len(c.lines(i))
		if n >= h {
			break
		}
	}
	i = max(i, 0)
	skip := max(n-h, 0)
	out := make([]string, 0, min(n, h))
	for j := i; j < len(c.entries); j++ {
		l := c.lines(j)
		if j == i {
			l = l[min(skip, len(l)):]
		}
		out = append(out, l...)
	}
	return out
}

// linesFrom returns up to h lines starting at a.
func (c *chat) linesFrom(a anchor, h int) []string {
	out := make([]string, 0, h)
	for i := a.idx; i < len(c.entries) && len(out) < h; i++ {
		l := c.lines(i)
		if i == a.idx {
			l = l[min(a.off, len(l)):]
		}
		out = append(out, l[:min(len(l), h-len(out))]...)
	}
	return out
}

// bottomAnchor returns the anchor of the first line on screen when
// following the bottom.
func (c *chat) bottomAnchor() anchor {
	n := 0
	for i := len(c.entries) - 1; i >= 0; i-- {
		n += len(c.lines(i))
		if n >= c.height {
			return anchor{i, n - c.height}
		}
	}
	return anchor{}
}

// atBottom reports whether the view from a reaches the end of the
// transcript.
func (c *chat) atBottom(a anchor) bool {
	n := 0
	for i := a.idx; i < len(c.entries); i++ {
		l := len(c.lines(i))
		if i == a.idx {
			l -= min(a.off, l)
		}
		n += l
		if n > c.height {
			return false
		}
	}
	return true
}

// scrollUp moves the view n lines up and stops following.
func (c *chat) scrollUp(n int) {
	if len(c.entries) == 0 {
		return
	}
	if c.follow {
		c.top = c.bottomAnchor()
	}
	c.follow = false
	a := c.top
	a.idx = min(a.idx, len(c.entries)-1)
	a.off -= n
	for a.off < 0 {
		if a.idx == 0 {
			a.off = 0
			break
		}
		a.idx--
		a.off += len(c.lines(a.idx))
	}
	c.top = a
	if c.atBottom(a) {
		c.follow = true
	}
}

// scrollDown moves the view n lines down; reaching the bottom follows it
// again.
func (c *chat) scrollDown(n int) {
	if c.follow {
		return
	}
	a := c.top
	a.off += n
	for a.idx < len(c.entries)-1 && a.off >= len(c.lines(a.idx)) {
		a.off -= len(c.lines(a.idx))
		a.idx++
	}
	c.top = a
	if a.idx >= len(c.entries) || c.atBottom(a) {
		c.follow = true
	}
}

// toTop shows the start of the transcript.
func (c *chat) toTop() {
	if len(c.entries) == 0 {
		return
	}
	c.top = anchor{}
	c.follow = c.atBottom(c.top)
}

// toBottom shows the end of the transcript and follows it.
func (c *chat) toBottom() { c.follow = true }

// visibleRange returns the entries [from, to) that are on screen.
func (c *chat) visibleRange() (from, to int) {
	a := c.top
	if c.follow {
		a = c.bottomAnchor()
	}
	n := 0
	i := a.idx
	for ; i < len(c.entries) && n < c.height; i++ {
		l := len(c.lines(i))
		if i == a.idx {
			l -= min(a.off, l)
		}
		n += l
	}
	return a.idx, i
}

// toggleTool expands or collapses the output of the lowest tool call on
// screen (or else the last one of the transcript). It reports whether
// there was one.
func (c *chat) toggleTool() bool {
	from, to := c.visibleRange()
	for _, r := range [][2]int{{to - 1, from}, {len(c.entries) - 1, 0}} {
		for i := r[0]; i >= r[1] && i >= 0; i-- {
			e := c.entries[i]
			if e.kind == entryTool && e.tool.expandable() {
				e.tool.expanded = !e.tool.expanded
				e.dirty = true
				return true
			}
		}
	}
	return false
}

// expandable reports whether expanding the call shows more.
func (t *toolCall) expandable() bool {
	return t.output != "" || len(t.children) > 0
}
