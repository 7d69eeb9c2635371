package ui

import (
	"github.com/tick-agent/tick/ui/dialog"
	"strconv"

	"github.com/tick-agent/tick/ui/style"

	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// SessionInfo is one saved session of the workspace, as the /sessions
// picker lists it. Config.Sessions returns them most recently used first.
type SessionInfo struct {
	ID          string    // what Config.Resume is called with
	Started     time.Time // when the session was created
	FirstPrompt string    // the first line of its first prompt ("" if none)
	Title       string    // its short title (session.Info.Title); "" shows FirstPrompt
	Done, Total int       // progress of its last todo list (Total 0: no list)
	Turns       int       // user messages in it
	Current     bool      // the session this app is in now
}

// sessionsMsg carries the result of Config.Sessions.
type sessionsMsg struct {
	list []SessionInfo
	err  error
}

// resumedMsg carries the result of Config.Resume for session id.
type resumedMsg struct {
	id    string
	reset ResetMsg
	err   error
}

// errNoResume is shown when the picker has no Config.Resume to call.
var errNoResume = errors.New("resuming a session is not available in this run")

// ErrSessionOpen is what Config.Resume returns (wrapped, with the other
// process named in the message) for a session that another tick has open:
// the picker then offers Config.Fork instead of resuming it.
var ErrSessionOpen = errors.New("the session is open in another tick")

// picker is the /sessions dialog: the workspace's sessions, one selected.
type picker struct {
	list []SessionInfo
	sel  int    // selected row
	off  int    // first row shown
	rows int    // rows shown at the last draw (a page)
	busy bool   // a resume is under way: the keys wait for it
	note string // shown instead of the keys' help (busy, refusals)
	fork string // the session that is open elsewhere: Fork offers to copy it
}

// newPicker returns a picker over list with the most recent session that
// is not the current one selected.
func newPicker(list []SessionInfo) *picker {
	p := &picker{list: list, rows: 1}
	for i, s := range list {
		if !s.Current {
			p.sel = i
			break
		}
	}
	return p
}

// move moves the selection by n rows, staying inside the list.
func (p *picker) move(n int) {
	p.sel = max(min(p.sel+n, len(p.list)-1), 0)
	p.note, p.fork = "", ""
}

// scrollTo keeps the selected row among the rows shown.
func (p *picker) scrollTo() {
	switch {
	case p.sel < p.off:
		p.off = p.sel
	case p.sel >= p.off+p.rows:
		p.off = p.sel - p.rows + 1
	}
	p.off = max(min(p.off, len(p.list)-p.rows), 0)
}

// openSessions is the /sessions command: it asks Config.Sessions for the
// list (off the update loop) and opens the picker when it arrives.
func (m *Model) openSessions() tea.Cmd {
	if m.turn != nil {
		m.chat.addNotice("cannot switch sessions while a turn runs: press esc to interrupt it first")
		return nil
	}
	list := m.cfg.Sessions
	return func() tea.Msg {
		l, err := list()
		return sessionsMsg{list: l, err: err}
	}
}

// handleSessions opens the picker on the listed sessions.
func (m *Model) handleSessions(msg sessionsMsg) {
	switch {
	case msg.err != nil:
		m.chat.addNotice("could not list the sessions: " + msg.err.Error())
	case m.turn != nil:
		m.chat.addNotice("cannot switch sessions while a turn runs: press esc to interrupt it first")
	case len(msg.list) == 0:
		m.chat.addNotice("no saved sessions in this workspace yet")
	default:
		m.closeHelp()
		m.over.push(newPicker(msg.list))
		m.input.blur()
	}
}

func (p *picker) Layer() int { return dialog.LayerPicker }

// update takes every key and paste while the picker is open (a paste does
// nothing); the wheel moves the selection.
func (p *picker) update(m *Model, msg tea.Msg, _ time.Time) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return p.key(m, msg), true
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			if !p.busy {
				p.move(-1)
			}
		case tea.MouseWheelDown:
			if !p.busy {
				p.move(1)
			}
		}
	}
	return nil, true
}

// sessionPicker returns the open /sessions picker, or nil.
func (m *Model) sessionPicker() *picker { return overlayOf[*picker](m) }

// key handles a key while the picker is open.
func (p *picker) key(m *Model, k tea.KeyPressMsg) tea.Cmd {
	keys := m.keys
	if p.busy {
		if key.Matches(k, keys.Quit) {
			return m.quit()
		}
		return nil
	}
	page := max(p.rows-1, 1)
	switch {
	case key.Matches(k, keys.Dismiss, keys.Quit):
		m.closePicker()
	case key.Matches(k, keys.SelectPrev):
		p.move(-1)
	case key.Matches(k, keys.SelectNext):
		p.move(1)
	case key.Matches(k, keys.PageUp, keys.HalfUp):
		p.move(-page)
	case key.Matches(k, keys.PageDown, keys.HalfDown):
		p.move(page)
	case key.Matches(k, keys.Top):
		p.move(-len(p.list))
	case key.Matches(k, keys.Bottom):
		p.move(len(p.list))
	case key.Matches(k, keys.Confirm):
		return m.resumeSelected()
	case p.fork != "" && key.Matches(k, keys.Fork):
		return m.forkSelected()
	}
	return nil
}

// forkSelected copies the selected session, open in another tick, into a
// new one through Config.Fork, the way resumeSelected resumes.
func (m *Model) forkSelected() tea.Cmd {
	p := m.sessionPicker()
	if m.turn != nil || m.cfg.Fork == nil {
		return nil
	}
	id := p.fork
	p.busy, p.fork, p.note = true, "", "forking "+id+"…"
	fork := m.cfg.Fork
	return func() tea.Msg {
		r, err := fork(id)
		return resumedMsg{id: id, reset: r, err: err}
	}
}

// resumeSelected resumes the selected session through Config.Resume (off
// the update loop); the picker stays open, busy, until the answer comes.
func (m *Model) resumeSelected() tea.Cmd {
	p := m.sessionPicker()
	s := p.list[p.sel]
	switch {
	case m.turn != nil:
		p.note = "cannot resume while a turn runs: close this and press esc to interrupt it"
		return nil
	case s.Current:
		m.closePicker()
		m.chat.addNotice("already in session " + s.ID)
		return nil
	case m.cfg.Resume == nil:
		p.note = errNoResume.Error()
		return nil
	}
	p.busy, p.note = true, "resuming "+s.ID+"…"
	resume, id := m.cfg.Resume, s.ID
	return func() tea.Msg {
		r, err := resume(id)
		return resumedMsg{id: id, reset: r, err: err}
	}
}

// handleResumed closes the picker and shows the resumed session. A
// session open in another tick keeps the picker open, offering to fork it.
func (m *Model) handleResumed(msg resumedMsg) {
	if p := m.sessionPicker(); p != nil && errors.Is(msg.err, ErrSessionOpen) && m.cfg.Fork != nil {
		p.busy, p.fork = false, msg.id
		p.note = msg.err.Error() + m.st.Glyphs.Separator + m.keys.Fork.Help().Key + " " + m.keys.Fork.Help().Desc + m.st.Glyphs.Separator + m.keys.Dismiss.Help().Key + " close"
		return
	}
	m.closePicker()
	if msg.err != nil {
		m.chat.addError("could not resume session "+msg.id+": "+msg.err.Error(), "The current conversation goes on unchanged.")
		return
	}
	m.reset(msg.reset)
}

// closePicker closes the picker and gives the focus back to the input.
func (m *Model) closePicker() {
	m.over.remove(m.sessionPicker())
	m.input.focus()
}

// view draws the picker centred over the whole area above the input.
func (p *picker) view(m *Model, w, h int) []string {
	return fitBox(p.box(m.st, m.help, m.keys, w, h), w, h)
}

// fitBox splits a dialog drawn centred in a w×h area into at most h
// lines, each cut to w cells.
func fitBox(box string, w, h int) []string {
	lines := strings.Split(box, "\n")
	lines = lines[:min(len(lines), h)]
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "")
	}
	return lines
}

// box renders the picker centred in a w×h area.
func (p *picker) box(st *Styles, hm help.Model, keys KeyMap, w, h int) string {
	g := st.Glyphs
	iw := max(min(w-4, style.DialogMaxWidth), 1)
	p.rows = max(h-7, 1) // borders, title, blank lines, footer
	p.scrollTo()

	title := st.DialogTitle.Render("Sessions") + st.DialogDesc.Render(g.Separator+"this workspace")
	if len(p.list) > p.rows {
		title += st.DialogDesc.Render(g.Separator + strconv.Itoa(p.sel+1) + "/" + strconv.Itoa(len(p.list)))
	}
	lines := []string{ansi.Truncate(title, iw, g.Ellipsis), ""}
	cols := sessionColumns(p.list)
	for i := p.off; i < min(p.off+p.rows, len(p.list)); i++ {
		lines = append(lines, p.row(st, cols, i, iw))
	}
	lines = append(lines, "")
	if p.note != "" {
		lines = append(lines, st.DialogDesc.Render(ansi.Truncate(style.OneLine(p.note), iw, g.Ellipsis))) // may name a session, quote an error
	} else {
		hm.SetWidth(iw)
		lines = append(lines, ansi.Truncate(hm.ShortHelpView(pickerKeys{keys}.ShortHelp()), iw, g.Ellipsis))
	}
	for i, l := range lines {
		lines[i] = l + strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
	}
	box := st.DialogBox.Render(strings.Join(lines, "\n"))
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box)
}

// sessionCols are the widths of the picker's columns.
type sessionCols struct{ id, turns, todo int }

func sessionColumns(list []SessionInfo) sessionCols {
	var c sessionCols
	for _, s := range list {
		c.id = max(c.id, ansi.StringWidth(style.OneLine(s.ID)))
		c.turns = max(c.turns, len(turnsText(s)))
		c.todo = max(c.todo, len(todoText(s)))
	}
	return c
}

// row renders session i as one line of width w: id, start time, turns,
// todo progress and title (the first prompt when it has none).
func (p *picker) row(st *Styles, c sessionCols, i, w int) string {
	s := p.list[i]
	mark := "  "
	if i == p.sel {
		mark = st.Glyphs.UserPrompt
	}
	prompt := s.Title
	if prompt == "" {
		prompt = s.FirstPrompt
	}
	if prompt == "" {
		prompt = "(no prompt)"
	}
	if s.Current {
		prompt = "(current) " + prompt
	}
	line := mark + style.Pad(style.OneLine(s.ID), c.id) + "  " + s.Started.Local().Format("2006-01-02 15:04") + "  " +
		style.Pad(turnsText(s), c.turns) + "  " + style.Pad(todoText(s), c.todo) + "  " + style.OneLine(prompt)
	line = ansi.Truncate(line, w, st.Glyphs.Ellipsis)
	if i == p.sel {
		return st.PickerSel.Render(line)
	}
	return st.DialogText.Render(line)
}

func turnsText(s SessionInfo) string { return style.Plural(s.Turns, "turn") }

func todoText(s SessionInfo) string {
	if s.Total == 0 {
		return "-"
	}
	return strconv.Itoa(s.Done) + "/" + strconv.Itoa(s.Total)
}

// pickerKeys is the help line of the picker.
type pickerKeys struct{ k KeyMap }

func (p pickerKeys) ShortHelp() []key.Binding {
	up, down, open, esc := p.k.SelectPrev, p.k.SelectNext, p.k.Confirm, p.k.Dismiss
	up.SetHelp(up.Help().Key, "up")
	down.SetHelp(down.Help().Key, "down")
	open.SetHelp(open.Help().Key, "resume")
	esc.SetHelp(esc.Help().Key, "close")
	return []key.Binding{up, down, open, esc}
}

func (p pickerKeys) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }
