package app

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/agent/workcopy"
	"github.com/tick-agent/tick/ui"
)

// Options is what a Session needs from Main.
type Options struct {
	// Workspace is the directory whose sessions are listed and resumed.
	Workspace string
	// Model and ContextWindow (0: from the name) are the model the
	// conversation talks to; /model changes them with SetModel.
	Model         string
	ContextWindow int
	// NewAgent returns an agent talking to model with its context window,
	// saving through rec (nil: nothing is saved). Required.
	NewAgent func(model string, window int, rec *session.Recorder) (*agent.Agent, error)
	// SessionModel returns the model and context window a resumed session
	// carries on with, given those in use (nil: keep them).
	SessionModel func(ld *session.Loaded, model string, window int) (string, int)
	// KeepMode keeps the mode NewAgent gives (the run was started with
	// --plan) instead of a resumed session's; see Restore.
	KeepMode bool
}

// Session is the conversation in use; see the package doc.
type Session struct {
	opts Options

	mu     sync.Mutex
	model  string
	window int
	ag     *agent.Agent
	rec    *session.Recorder // nil: nothing is saved
	closed bool              // the app has ended: resume nothing more
}

// New returns the session holding ag, saving through rec (nil: nothing is
// saved). It owns rec from now on.
func New(opts Options, ag *agent.Agent, rec *session.Recorder) *Session {
	return &Session{opts: opts, model: opts.Model, window: opts.ContextWindow, ag: ag, rec: rec}
}

// ErrNotSaved is what the picker says when this run saves no sessions.
var ErrNotSaved = errors.New("sessions are not saved in this run")

// Current returns the agent and recorder in use.
func (s *Session) Current() (*agent.Agent, *session.Recorder) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ag, s.rec
}

// Model returns the model (and its context window, 0: from the name) the
// conversation talks to and /new starts with.
func (s *Session) Model() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model, s.window
}

// SetModel makes name (with its context size, 0: from the name) the
// model of later sessions (/new) too.
func (s *Session) SetModel(name string, window int) {
	s.mu.Lock()
	s.model, s.window = name, window
	s.mu.Unlock()
}

// Close closes the current session file; a resume still under way when
// the app ends closes the file it opened itself.
func (s *Session) Close() {
	s.mu.Lock()
	s.closed = true
	rec := s.rec
	s.mu.Unlock()
	if rec != nil {
		_ = rec.Close()
	}
}

// NewSession is /new: a fresh conversation with an empty todo list, saved
// in a new session file (created with the first prompt). The previous
// session stays on disk for tick -c and --resume.
func (s *Session) NewSession() tea.Cmd {
	_, old := s.Current()
	model, window := s.Model()
	var rec *session.Recorder
	if old != nil {
		rec = session.NewRecorder(old.Dir(), s.opts.Workspace, model)
	}
	ag, err := s.opts.NewAgent(model, window, rec)
	if err != nil {
		return NoticeCmd(fmt.Sprintf("could not start a new session: %v", err))
	}
	s.mu.Lock()
	s.ag, s.rec = ag, rec
	s.mu.Unlock()
	note := "new session"
	if old != nil {
		if id := old.ID(); id != "" {
			note = fmt.Sprintf("new session · the previous one is %s (tick --resume %s)", id, id)
		}
		_ = old.Close()
	}
	return func() tea.Msg { return ui.ResetMsg{Agent: ag, Notice: note} }
}

// Sessions lists the workspace's sessions for the /sessions picker, most
// recently used first, marking the one in use.
func (s *Session) Sessions() ([]ui.SessionInfo, error) {
	_, rec := s.Current()
	if rec == nil || rec.Dir() == "" {
		return nil, ErrNotSaved
	}
	all, err := session.List(rec.Dir(), s.opts.Workspace)
	if err != nil {
		return nil, err
	}
	cur := rec.ID()
	out := make([]ui.SessionInfo, len(all))
	for i, in := range all {
		out[i] = ui.SessionInfo{
			ID: in.ID, Started: in.Started, FirstPrompt: in.FirstPrompt, Title: in.Title(),
			Done: in.Done, Total: in.Total, Turns: in.Turns, Current: cur != "" && in.ID == cur,
		}
	}
	return out, nil
}

// Resume switches to the workspace's session id, for the /sessions picker:
// it opens the session's file (repairing it as tick -c does), gives a new
// agent its history and todo list, and closes the session in use. On error
// nothing changes; a session open in another tick gives an error wrapping
// ui.ErrSessionOpen, and the picker offers fork. The app calls it only
// while no turn runs.
func (s *Session) Resume(id string) (ui.ResetMsg, error) {
	return s.switchTo(id, "resume", session.Open)
}

// Fork copies the workspace's session id, open in another tick, into a new
// session and switches to it, as Resume does.
func (s *Session) Fork(id string) (ui.ResetMsg, error) {
	return s.switchTo(id, "fork", session.Fork)
}

// switchTo opens session id with open and makes it the conversation in use.
func (s *Session) switchTo(id, verb string, open func(string) (*session.Store, *session.Loaded, error)) (ui.ResetMsg, error) {
	_, old := s.Current()
	if old == nil || old.Dir() == "" {
		return ui.ResetMsg{}, ErrNotSaved
	}
	info, err := session.Find(old.Dir(), s.opts.Workspace, id)
	if err != nil {
		return ui.ResetMsg{}, fmt.Errorf("find session %s: %w", id, err)
	}
	st, ld, err := open(info.Path)
	var locked *session.LockedError
	if errors.As(err, &locked) {
		return ui.ResetMsg{}, fmt.Errorf("%w%s", ui.ErrSessionOpen, PIDNote(locked.PID))
	}
	if err != nil {
		return ui.ResetMsg{}, err
	}
	model, window := s.Model()
	if s.opts.SessionModel != nil {
		model, window = s.opts.SessionModel(ld, model, window)
	}
	rec := session.Continue(old.Dir(), s.opts.Workspace, model, st)
	ag, err := s.opts.NewAgent(model, window, rec)
	if err == nil {
		err = Restore(ag, ld, s.opts.KeepMode)
	}
	if err != nil {
		_ = rec.Close()
		return ui.ResetMsg{}, fmt.Errorf("%s session %s: %w", verb, id, err)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = rec.Close()
		return ui.ResetMsg{}, fmt.Errorf("%s session %s: the app has ended", verb, id)
	}
	s.ag, s.rec = ag, rec
	s.model, s.window = model, window
	s.mu.Unlock()
	_ = old.Close()
	return ui.ResetMsg{Agent: ag, Model: model, History: History(ag, ld), Todos: ld.Todos, Notice: strings.Join(Notices(ld), "\n")}, nil
}

// PIDNote is " (pid N)", or "" for an unknown pid.
func PIDNote(pid int) string {
	if pid <= 0 {
		return ""
	}
	return fmt.Sprintf(" (pid %d)", pid)
}

// ResumedLine is the one-line summary of a resumed session: its id, how
// many messages it has and its todo progress.
func ResumedLine(ld *session.Loaded) string {
	s := fmt.Sprintf("resumed session %s · %d messages", ld.Info.ID, len(ld.History))
	if ld.Info.Total > 0 {
		s += fmt.Sprintf(" · todo %d/%d", ld.Info.Done, ld.Info.Total)
	}
	return s
}

// Notices says which session was resumed and what its loading repaired,
// for the chat, and names the task copies the session left (tick was
// killed while its tasks held work), removing every session's copies
// older than a week (workcopy.Recover).
func Notices(ld *session.Loaded) []string {
	out := append([]string{ResumedLine(ld)}, ld.Warnings...)
	return append(out, TaskCopyNotes(ld.Info.ID)...)
}

// TaskCopyNotes names the task copies session id left (tick was killed
// while its tasks held work) and removes every session's copies older
// than a week, saying so (see workcopy.Recover).
func TaskCopyNotes(id string) []string {
	return workcopy.RecoverNotes(workcopy.Recover(id, time.Now()))
}

// NoticeCmd returns a command that shows text in the chat.
func NoticeCmd(text string) tea.Cmd {
	return func() tea.Msg { return ui.NoticeMsg{Text: text} }
}
