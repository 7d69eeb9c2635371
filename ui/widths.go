package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/style"
)

// widthReport takes the terminal's answer about mode 2027 (grapheme
// clustering), which Bubble Tea asks for at start-up and acts on before
// the model sees it: from then on the frame is measured the way the
// renderer draws it. It reports false for other modes' answers, which
// change nothing on the screen.
func (m *Model) widthReport(msg tea.ModeReportMsg) bool {
	if msg.Mode != ansi.ModeUnicodeCore {
		return false
	}
	m.widths.setCells(style.ForModeReport(msg.Value))
	return true
}

// widthCache measures, cuts and pads lines with the renderer's measure
// (style.Cells, set from the terminal's mode 2027 report) and remembers
// the width of lines drawn in recent frames: the chat's lines are the same
// strings from frame to frame, and hashing one is much cheaper than
// measuring it.
type widthCache struct {
	cells style.Cells
	seen  map[string]int // by folded line, under cells
}

// widthCacheMax bounds the cache; it is emptied when full.
const widthCacheMax = 4096

// setCells changes the measure (the terminal reported mode 2027); the
// widths remembered under the old one go.
func (c *widthCache) setCells(cl style.Cells) {
	if cl != c.cells {
		c.cells, c.seen = cl, nil
	}
}

// width is the cells a folded line l takes on the screen.
func (c *widthCache) width(l string) int {
	if len(l) < 16 {
		return c.cells.Method.StringWidth(l)
	}
	if n, ok := c.seen[l]; ok {
		return n
	}
	if c.seen == nil || len(c.seen) >= widthCacheMax {
		c.seen = make(map[string]int, 256)
	}
	n := c.cells.Method.StringWidth(l)
	c.seen[l] = n
	return n
}

// fit folds a line (style.Cells.Fold) and cuts or pads it to exactly w
// cells.
func (c *widthCache) fit(l string, w int) string {
	l = c.cells.Fold(l)
	switch n := c.width(l); {
	case n < w:
		return l + strings.Repeat(" ", w-n)
	case n > w:
		return c.cells.Fit(l, w)
	}
	return l
}

// cut folds a line and cuts it to at most w cells: the last guard of every
// line of the frame, so none is wider than the screen by the renderer's
// measure.
func (c *widthCache) cut(l string, w int) string {
	l = c.cells.Fold(l)
	if len(l) > w && c.width(l) > w {
		return c.cells.Cut(l, w)
	}
	return l
}
