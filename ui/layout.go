package ui

import (
	"github.com/tick-agent/tick/ui/panel"
	"github.com/tick-agent/tick/ui/status"

	"github.com/tick-agent/tick/ui/style"

	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// geometry is where each part of the screen goes.
type geometry struct {
	small     bool // below minWidth×minHeight: only a note
	chatW     int  // width of the chat pane (and the strip below it)
	chatH     int  // lines of the chat pane
	pendingH  int  // lines of steering/queued messages under the chat
	panelWide bool // the expanded panel sits at the right
	panelW    int  // its width when at the right
	panelH    int  // its lines when above the input (with its rule)
	summary   bool // the collapsed panel's summary line
	inputH    int
}

// pendingMax is the most lines the steering/queued strip takes.
const pendingMax = 4

// layout computes the geometry for the current size and state, and sizes
// the children.
func (m *Model) layout() {
	w, h := m.width, m.height
	g := geometry{}
	if w < minWidth || h < minHeight {
		g.small = true
		m.geo = g
		return
	}
	m.input.SetSize(w, h/4)
	g.inputH = m.input.Height()
	rows := h - 2 - g.inputH // status bar and the rule above the input
	g.chatW = w
	switch {
	case m.panel.Open() && w >= panel.WideFrom:
		g.panelWide = true
		g.panelW = min(max(int(float64(w)*panel.Share), panel.MinWidth), panel.MaxWidth)
		g.chatW = w - g.panelW - 3
	case m.panel.Open():
		g.panelH = min(m.panel.LineCount(w)+1, panel.NarrowMax, rows/2)
		rows -= g.panelH
	case m.panel.Visible():
		g.summary = true
		rows--
	}
	g.pendingH = min(m.handed.len(), pendingMax, max(rows-3, 0))
	g.chatH = max(rows-g.pendingH, 1)
	m.geo = g
	m.chat.SetSize(g.chatW, g.chatH)
}

// draw draws the frame again when the state changed since the last one
// (see repaint). Update calls it last; View only returns the frame.
func (m *Model) draw() {
	if m.paint.due() {
		m.render()
		m.paint.done()
	}
}

// render draws the frame into m.frame and places the cursor.
func (m *Model) render() {
	m.cursor = nil
	w, h := m.width, m.height
	if m.geo.small || w <= 0 || h <= 0 {
		m.frame = tooSmall(m.st, w, h)
		return
	}
	g := m.geo

	// Everything above the input: chat (+ strip) and panel, then the
	// input's popups or the overlays on top.
	_, above := m.overlayArea()
	lines := m.renderBase(make([]string, 0, h), w)
	lines = lines[:min(len(lines), above)]
	for len(lines) < above {
		lines = append(lines, "")
	}
	boxes := m.overlayBoxes(w, above)
	if len(boxes) == 0 {
		if box := m.input.MentionView(m.st, m.fileIndex(), w, above); box != nil {
			copy(lines[above-len(box):], box)
		} else if box := m.input.CompleteView(m.st, m.completions, w, above); box != nil {
			copy(lines[above-len(box):], box)
		}
	}
	for _, box := range boxes {
		copy(lines[above-len(box):], box)
	}
	if g.summary {
		lines = append(lines, m.panel.Summary(w))
	}
	lines = append(lines, m.st.InputRule.Render(strings.Repeat(m.st.Glyphs.Rule, w)))
	top := len(lines)
	in := strings.Split(m.input.View(), "\n")
	in = in[:min(len(in), g.inputH)]
	for len(in) < g.inputH {
		in = append(in, "")
	}
	lines = append(lines, in...)
	lines = append(lines, status.View(m.bar, m.statusInfo(), w))
	for i, l := range lines {
		lines[i] = m.widths.cut(l, w) // no line wider than the screen, as the renderer counts
	}
	m.frame = strings.Join(lines, "\n")
	if len(boxes) == 0 {
		if c := m.input.Cursor(); c != nil {
			c.Position.Y += top
			m.cursor = c
		}
	}
}

// renderBase appends the chat (with the strip of handed-over text under
// it) and the panel, beside it or under it, to lines, for a w-cell wide
// screen.
func (m *Model) renderBase(lines []string, w int) []string {
	g := m.geo
	left := append(m.chat.View(), m.handed.view(m.st, g.chatW, g.pendingH)...)
	m.shownChat = append(m.shownChat[:0], left[:min(len(left), g.chatH)]...)
	if m.sel.on {
		left = append([]string(nil), left...) // the chat's own lines stay as they are
		m.highlight(left[:min(len(left), g.chatH)])
	}
	if g.panelWide {
		right := m.panel.View(g.panelW, len(left), m.spin.View())
		sep := " " + m.st.PanelRule.Render(m.st.Glyphs.VRule) + " "
		for i, l := range left {
			r := ""
			if i < len(right) {
				r = right[i]
			}
			lines = append(lines, m.widths.fit(l, g.chatW)+sep+m.widths.cut(r, g.panelW))
		}
		return lines
	}
	lines = append(lines, left...) // cut to w with the rest of the frame (render)
	if g.panelH > 0 {
		lines = append(lines, m.st.PanelRule.Render(strings.Repeat(m.st.Glyphs.Rule, w)))
		lines = append(lines, m.panel.View(w, g.panelH-1, m.spin.View())...)
	}
	return lines
}

// status.Info collects what the status bar shows.
func (m *Model) statusInfo() status.Info {
	s := status.Info{
		Model:     style.OneLine(m.cfg.Model),                       // a model name may come from a server
		Workspace: style.OneLine(status.ShortPath(m.cfg.Workspace)), // a cloned repository names its directory
		Ctx:       m.usage.ctx,
		Cost:      m.usage.costText(),
		Notice:    m.note,
		MCP:       mcpField(m.cfg.MCP),
		Mode:      joinNonEmpty(m.st.Glyphs.Separator, m.modeText(), m.verify.text()),
		Yolo:      m.cfg.Yolo,
	}
	if m.think != "" {
		s.Model += " · think " + m.think
	}
	if w := m.modelWarn; s.Notice == "" && !m.running() && w.model == m.cfg.Model {
		s.Notice = w.warning // the server does not list the model
	}
	s.Steering, s.Queued = m.handed.waiting()
	if t := m.turn; t != nil && !t.ended {
		s.Running = true
		s.Act, s.Tool = t.act, t.tool
		s.Spin = ansi.Strip(m.spin.View()) // drawn in the bar's own style
		if t.gatePaused() {
			s.Spin = "" // waiting for the user: nothing turns
		}
		s.Elapsed = t.elapsed(m.now)
		if quiet := m.now.Sub(t.heard); quiet >= status.QuietAfter && (t.act == status.ActThinking || t.act == status.ActAnswering) {
			s.Quiet = quiet // a model call, and the server sends nothing
		}
	}
	return s
}

// tooSmall is the whole screen below the minimum size: a note, cut to fit.
func tooSmall(st *Styles, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	msg := fmt.Sprintf("Terminal too small (%d×%d): tick needs at least %d×%d.", w, h, minWidth, minHeight)
	lines := style.WrapText(msg, w)
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = st.TooSmall.Render(ansi.Truncate(l, w, ""))
	}
	return strings.Join(lines, "\n")
}
