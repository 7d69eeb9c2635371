package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// selection is a range of the chat pane selected with the mouse, in cells
// of the screen: from the press (a) to where the pointer is or was let go
// (b). It highlights what the frame shows there and, when the button is
// released, copies the text of what it covers (see ui/chat/copytext.go: wrapped
// lines joined, without margins, bars or gutters); it never reaches
// across the panel, which sits beside or below the chat.
type selection struct {
	on, dragging bool
	a, b         cell
}

// cell is a position on the screen.
type cell struct{ x, y int }

// ordered returns the selection's ends in reading order.
func (s selection) ordered() (from, to cell) {
	if s.b.y < s.a.y || s.b.y == s.a.y && s.b.x < s.a.x {
		return s.b, s.a
	}
	return s.a, s.b
}

// span is the columns [l, r) of row y that the selection covers in a pane
// w cells wide; ok is false for a row outside it.
func (s selection) span(y, w int) (l, r int, ok bool) {
	from, to := s.ordered()
	if !s.on || y < from.y || y > to.y {
		return 0, 0, false
	}
	l, r = 0, w
	if y == from.y {
		l = from.x
	}
	if y == to.y {
		r = to.x + 1
	}
	return max(l, 0), min(r, w), l < r
}

// inChat clamps a mouse position to the chat pane; ok is false when it is
// outside the pane (the panel, the input, the status bar).
func (m *Model) inChat(mo tea.Mouse) (cell, bool) {
	g := m.geo
	if g.small || mo.X < 0 || mo.Y < 0 || mo.X >= g.chatW || mo.Y >= g.chatH {
		return cell{}, false
	}
	return cell{mo.X, mo.Y}, true
}

// clampChat puts a position dragged out of the chat pane on its edge.
func (m *Model) clampChat(mo tea.Mouse) cell {
	return cell{min(max(mo.X, 0), m.geo.chatW-1), min(max(mo.Y, 0), m.geo.chatH-1)}
}

// handleMouse selects in the chat: a left press starts a selection, a
// drag extends it, the release copies it (see copyText). Any other press
// clears it. While an overlay is open the mouse selects nothing.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	mo := msg.Mouse()
	switch msg.(type) {
	case tea.MouseClickMsg:
		m.sel = selection{}
		if c, ok := m.inChat(mo); ok && mo.Button == tea.MouseLeft && m.over.top() == nil {
			m.sel = selection{on: true, dragging: true, a: c, b: c}
		}
	case tea.MouseMotionMsg:
		if m.sel.dragging {
			m.sel.b = m.clampChat(mo)
		}
	case tea.MouseReleaseMsg:
		if !m.sel.dragging {
			return nil
		}
		m.sel.dragging = false
		m.sel.b = m.clampChat(mo)
		if m.sel.a == m.sel.b {
			m.sel = selection{} // a click, not a drag
			return nil
		}
		if text := m.selectedText(); strings.TrimSpace(text) != "" {
			return m.copyText("the selection", text)
		}
	}
	return nil
}

// selectedText is the logical text of the chat lines the selection covers
// in the last frame (chat.Model.SelectedText).
func (m *Model) selectedText() string {
	return m.chat.SelectedText(m.shownChat, func(y int) (int, int, bool) { return m.sel.span(y, m.geo.chatW) })
}

// highlight shows the selection on the chat lines of a frame, in reverse
// video.
func (m *Model) highlight(lines []string) {
	if !m.sel.on {
		return
	}
	w := m.geo.chatW
	for y := range lines {
		l, r, ok := m.sel.span(y, w)
		if !ok {
			continue
		}
		line := lines[y]
		lines[y] = ansi.Truncate(line, l, "") + ansi.ResetStyle + "\x1b[7m" + ansi.Strip(ansi.Cut(line, l, r)) + ansi.ResetStyle + ansi.TruncateLeft(line, r, "")
	}
}
