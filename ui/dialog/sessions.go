package dialog

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/style"
)

// SessionInfo is one saved session of the workspace, as the /sessions
// picker lists it (ui.Services.ListSessions returns them most recently used
// first).
type SessionInfo struct {
	ID          string    // what ui.Services.ResumeSession is called with
	Started     time.Time // when the session was created
	FirstPrompt string    // the first line of its first prompt ("" if none)
	Title       string    // its short title (session.Info.Title); "" shows FirstPrompt
	Done, Total int       // progress of its last todo list (Total 0: no list)
	Turns       int       // user messages in it
	Current     bool      // the session this app is in now
}

// ResumeSession asks the root to resume session ID off the update loop;
// the picker stays open, busy, until the root closes it or offers a fork
// (Sessions.OfferFork).
type ResumeSession struct{ ID string }

// ForkSession asks the root to copy session ID, open in another tick,
// into a new session, the way ResumeSession resumes one.
type ForkSession struct{ ID string }

func (ResumeSession) action() {}
func (ForkSession) action()   {}

// noResume is the picker's note when the run cannot resume a session.
const noResume = "resuming a session is not available in this run"

// Sessions is the /sessions picker: the workspace's sessions, one
// selected; enter resumes it, esc closes. While a resume is under way the
// keys wait for it (but ctrl+c, which quits).
type Sessions struct {
	list      []SessionInfo
	sel       int    // selected row
	off       int    // first row shown, as of the last key
	canResume bool   // the run can resume a session
	busy      bool   // a resume is under way: the keys wait for it
	note      string // shown instead of the keys' help (busy, refusals)
	fork      string // the session that is open elsewhere: Fork offers to copy it
	forkWhy   string // why it could not be resumed
}

// NewSessions returns a picker over list with the most recent session
// that is not the current one selected; canResume false makes enter say
// that this run cannot resume.
func NewSessions(list []SessionInfo, canResume bool) *Sessions {
	p := &Sessions{list: list, canResume: canResume}
	for i, s := range list {
		if !s.Current {
			p.sel = i
			break
		}
	}
	return p
}

// Layer puts it with the pickers.
func (p *Sessions) Layer() int { return LayerPicker }

// Selection is the index of the selected session in the list.
func (p *Sessions) Selection() int { return p.sel }

// Selected is the selected session.
func (p *Sessions) Selected() SessionInfo { return p.list[p.sel] }

// OfferFork ends a resume of session id that failed because another tick
// has it open (why says so): the picker takes keys again and offers to
// fork it until the selection moves.
func (p *Sessions) OfferFork(id, why string) {
	p.busy, p.note, p.fork, p.forkWhy = false, "", id, why
}

// Update takes every key and paste while the picker is open (a paste does
// nothing); the wheel moves the selection.
func (p *Sessions) Update(c Context, msg tea.Msg) (Action, bool) {
	rows := sessionRows(c.Height)
	p.off = p.scrolled(rows) // where the last frame had it
	var act Action
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		act = p.key(c, msg, rows)
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
	p.off = p.scrolled(rows)
	return act, true
}

// key handles a key while the picker is open; rows is a page.
func (p *Sessions) key(c Context, k tea.KeyPressMsg, rows int) Action {
	keys := c.Keys
	if p.busy {
		if key.Matches(k, keys.Quit) {
			return Quit{}
		}
		return nil
	}
	page := max(rows-1, 1)
	switch {
	case key.Matches(k, keys.Back):
		return Seq{Close{}, FocusInput{}}
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
		return p.resume(c)
	case p.fork != "" && key.Matches(k, keys.Fork):
		if c.Running {
			return nil
		}
		id := p.fork
		p.busy, p.fork, p.note = true, "", "forking "+id+"…"
		return ForkSession{id}
	}
	return nil
}

// resume asks for the selected session, unless a turn runs, it is the
// current one or the run cannot resume.
func (p *Sessions) resume(c Context) Action {
	s := p.list[p.sel]
	switch {
	case c.Running:
		p.note = "cannot resume while a turn runs: close this and press esc to interrupt it"
		return nil
	case s.Current:
		return Seq{Close{}, FocusInput{}, Notice{"already in session " + s.ID}}
	case !p.canResume:
		p.note = noResume
		return nil
	}
	p.busy, p.note = true, "resuming "+s.ID+"…"
	return ResumeSession{s.ID}
}

// move moves the selection by n rows, staying inside the list, and
// withdraws a note and a fork offer.
func (p *Sessions) move(n int) {
	p.sel = max(min(p.sel+n, len(p.list)-1), 0)
	p.note, p.fork, p.forkWhy = "", "", ""
}

// sessionRows is how many sessions a picker in an area h lines high
// shows: all but its borders, title, blank lines and footer.
func sessionRows(h int) int { return max(h-7, 1) }

// scrolled returns the first row to show so that the selected one is
// among rows rows, moving the last offset as little as it can.
func (p *Sessions) scrolled(rows int) int {
	off := p.off
	switch {
	case p.sel < off:
		off = p.sel
	case p.sel >= off+rows:
		off = p.sel - rows + 1
	}
	return max(min(off, len(p.list)-rows), 0)
}

// View draws the picker centred over the whole area above the input.
func (p *Sessions) View(c Context, w, h int) []string {
	return fitBox(p.box(c, w, h), w, h)
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
func (p *Sessions) box(c Context, w, h int) string {
	st := c.St
	g := st.Glyphs
	iw := max(min(w-4, style.DialogMaxWidth), 1)
	rows := sessionRows(h)
	off := p.scrolled(rows)

	title := st.DialogTitle.Render("Sessions") + st.DialogDesc.Render(g.Separator+"this workspace")
	if len(p.list) > rows {
		title += st.DialogDesc.Render(g.Separator + strconv.Itoa(p.sel+1) + "/" + strconv.Itoa(len(p.list)))
	}
	lines := []string{style.TruncateWidth(title, iw, g.Ellipsis), ""}
	cols := sessionColumns(p.list)
	for i := off; i < min(off+rows, len(p.list)); i++ {
		lines = append(lines, p.row(st, cols, i, iw))
	}
	lines = append(lines, "")
	if note := p.noteText(c); note != "" {
		lines = append(lines, st.DialogDesc.Render(style.TruncateWidth(style.OneLine(note), iw, g.Ellipsis))) // may name a session, quote an error
	} else {
		hm := style.HelpModel(st)
		hm.SetWidth(iw)
		lines = append(lines, style.TruncateWidth(hm.ShortHelpView(sessionsHelp(c.Keys)), iw, g.Ellipsis))
	}
	for i, l := range lines {
		lines[i] = l + strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
	}
	box := st.DialogBox.Render(strings.Join(lines, "\n"))
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box)
}

// noteText is the line shown instead of the keys' help: the note, or the
// fork offer with its keys; "" for the help.
func (p *Sessions) noteText(c Context) string {
	if p.fork == "" || p.forkWhy == "" {
		return p.note
	}
	sep, f, d := c.St.Glyphs.Separator, c.Keys.Fork.Help(), c.Keys.Back.Help()
	return p.forkWhy + sep + f.Key + " " + f.Desc + sep + d.Key + " close"
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
func (p *Sessions) row(st *style.Styles, c sessionCols, i, w int) string {
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
	line = style.TruncateWidth(line, w, st.Glyphs.Ellipsis)
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

// sessionsHelp is the help line of the picker: keys' bindings with the
// picker's words.
func sessionsHelp(k style.KeyMap) []key.Binding {
	up, down, open, esc := k.SelectPrev, k.SelectNext, k.Confirm, k.Back
	up.SetHelp(up.Help().Key, "up")
	down.SetHelp(down.Help().Key, "down")
	open.SetHelp(open.Help().Key, "resume")
	esc.SetHelp(esc.Help().Key, "close")
	return []key.Binding{up, down, open, esc}
}
