package ui

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/dialog"
)

// SessionInfo is one saved session of the workspace, as the /sessions
// picker lists it (dialog.SessionInfo). Services.ListSessions returns them
// most recently used first.
type SessionInfo = dialog.SessionInfo

// sessionsMsg carries the result of Services.ListSessions.
type sessionsMsg struct {
	list []SessionInfo
	err  error
}

// resumedMsg carries the result of Services.ResumeSession for session id.
type resumedMsg struct {
	id    string
	reset ResetMsg
	err   error
}

// errNoFork is the answer to a resume or fork the run does not offer
// (Services.Offers; the picker asks only for what it offers).
var errNoFork = errors.New("forking a session is not available in this run")

// ErrSessionOpen is what Services.ResumeSession returns (wrapped, with the
// other process named in the message) for a session that another tick has
// open: the picker then offers Services.ForkSession instead of resuming it.
var ErrSessionOpen = errors.New("the session is open in another tick")

// openSessions is the /sessions command: it asks Services.ListSessions for
// the list (off the update loop) and opens the picker (dialog.Sessions) when
// it arrives.
func (m *Model) openSessions() tea.Cmd {
	if m.turn != nil {
		m.chat.AddNotice("cannot switch sessions while a turn runs: press esc to interrupt it first")
		return nil
	}
	svc := m.cfg.Services
	return func() tea.Msg {
		l, err := svc.ListSessions()
		return sessionsMsg{list: l, err: err}
	}
}

// handleSessions opens the picker on the listed sessions.
func (m *Model) handleSessions(msg sessionsMsg) {
	switch {
	case msg.err != nil:
		m.chat.AddNotice("could not list the sessions: " + msg.err.Error())
	case m.turn != nil:
		m.chat.AddNotice("cannot switch sessions while a turn runs: press esc to interrupt it first")
	case len(msg.list) == 0:
		m.chat.AddNotice("no saved sessions in this workspace yet")
	default:
		m.closeHelp()
		m.over.push(dialog.NewSessions(msg.list, m.cfg.Services.Offers().Resume))
		m.input.Blur()
	}
}

// sessionPicker returns the open /sessions picker, or nil.
func (m *Model) sessionPicker() *dialog.Sessions { return overlayOf[*dialog.Sessions](m) }

// resumeSession carries out the picker's dialog.ResumeSession (or, fork
// true, its dialog.ForkSession): Services.ResumeSession or ForkSession
// off the update loop; the answer comes back as a resumedMsg.
func (m *Model) resumeSession(id string, fork bool) tea.Cmd {
	svc, offers := m.cfg.Services, m.cfg.Services.Offers()
	f := svc.ResumeSession
	if fork {
		f = svc.ForkSession
	}
	if (fork && !offers.Fork) || (!fork && !offers.Resume) { // the picker asks only for what the run has
		return func() tea.Msg { return resumedMsg{id: id, err: errNoFork} }
	}
	return func() tea.Msg {
		r, err := f(id)
		return resumedMsg{id: id, reset: r, err: err}
	}
}

// handleResumed closes the picker and shows the resumed session. A
// session open in another tick keeps the picker open, offering to fork it.
func (m *Model) handleResumed(msg resumedMsg) {
	if p := m.sessionPicker(); p != nil && errors.Is(msg.err, ErrSessionOpen) && m.cfg.Services.Offers().Fork {
		p.OfferFork(msg.id, msg.err.Error())
		return
	}
	m.closePicker()
	if msg.err != nil {
		m.chat.AddError("could not resume session "+msg.id+": "+msg.err.Error(), "The current conversation goes on unchanged.")
		return
	}
	m.reset(msg.reset)
}

// closePicker closes the picker and gives the focus back to the input.
func (m *Model) closePicker() {
	m.over.remove(m.sessionPicker())
	m.input.Focus()
}
