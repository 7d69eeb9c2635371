package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/ui"
)

// runTUI opens the full-screen app on the terminal until the user quits.
// It needs a terminal on stdin and stdout. The background colour is asked
// of the terminal before the program starts (the styles are chosen once).
// SIGHUP (the terminal went away) ends the app like a quit, so the running
// turn is stopped and its commands killed; ctrl+c is a key inside the app,
// and a SIGINT from outside exits 130.
//
// ld, when not nil, is the resumed session (already restored into ag): the
// app shows its transcript, its todo list collapsed, and which session it
// is with the warnings of its loading as notices at the top of the chat
// (they are on stderr too, where the full-screen app hides them until it
// exits). rec is the session being saved (nil: nothing is saved). The
// slash command /new and the /sessions picker are wired here (see
// tuiSession); /compact is built into the app.
func runTUI(cfg config, client agent.Streamer, ag *agent.Agent, rec *session.Recorder, ld *session.Loaded, stdin io.Reader, stdout, stderr io.Writer) int {
	in, out, err := terminals(stdin, stdout)
	if err != nil {
		return fail(stderr, err)
	}
	dark := detectDark(cfg.colorFGBG, bgQueryTimeout)
	defer runtime.GOMAXPROCS(tuiProcs(os.Getenv("GOMAXPROCS")))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGHUP)
	defer stop()
	terminated, stopTerm := watchTerm()
	defer stopTerm()
	ts := &tuiSession{cfg: cfg, client: client, ag: ag, rec: rec}
	defer ts.close()
	uc := ui.Config{
		Agent:        ag,
		Model:        cfg.model,
		Workspace:    cfg.workspace,
		Yolo:         cfg.yolo,
		Sandbox:      sandboxStatus(cfg),
		SandboxReady: sandboxReady(cfg),
		Dark:         dark,
		Version:      version,
		Commands:     ts.commands(),
		Sessions:     ts.sessions,
		Resume:       ts.resume,
		Fork:         ts.fork,
		Screen:       out,
		Env:          os.Environ(),

		CommandHelp: map[string]string{"new": "start a new conversation", "init": "have the model write AGENTS.md", "trust": "allow this project's MCP servers and hooks"},
		HistoryFile: cfg.historyFile,
		Prompt:      cfg.initial,
		Models:      ts.modelConfig(),
		Files:       workspaceFiles(cfg.workspace),
		ConfigPath:  cfg.settings.UserFile,
	}
	if cfg.instructionsLine != "" {
		uc.Notices = append(uc.Notices, cfg.instructionsLine)
	}
	uc.Notices = append(append(uc.Notices, cfg.notices...), cfg.settings.Warnings...)
	if x := cfg.ext; x != nil {
		uc.Notices = append(uc.Notices, x.notices...)
		uc.Custom, uc.MCP = x.uiCustom(), x.uiMCP()
	}
	if ld != nil {
		uc.History, uc.Todos = agent.Replay(ld.History, ld.CompactedAt...), ld.Todos
		uc.Notices = append(uc.Notices, sessionNotices(ld)...)
	}
	if rec == nil && !cfg.noSession {
		uc.Notices = append(uc.Notices, "this session is not saved: the sessions directory is not usable (the reason is printed on stderr)")
	}
	err = ui.Run(ctx, uc, tea.WithInput(in), tea.WithOutput(out))
	switch {
	case terminated():
		return exitTerminated
	case errors.Is(err, tea.ErrInterrupted):
		return exitInterrupted
	case err != nil:
		return fail(stderr, err)
	}
	return exitOK
}

// terminals returns stdin and stdout as terminals, or a usage error when
// either is not one.
func terminals(stdin io.Reader, stdout io.Writer) (in, out *os.File, err error) {
	in, inOK := stdin.(*os.File)
	out, outOK := stdout.(*os.File)
	if !inOK || !outOK || !isTerminal(in) || !isTerminal(out) {
		return nil, nil, usagef("the full-screen app needs a terminal; use -p PROMPT to run headless")
	}
	return in, out, nil
}

// tuiSession is the conversation the full-screen app talks to, which the
// slash commands may replace: /new starts a fresh agent and session file,
// the /sessions picker lists the workspace's sessions (sessions) and
// resumes one (resume). /new runs in the app's update loop; sessions and
// resume run off it, and never while a turn runs.
type tuiSession struct {
	cfg    config
	client agent.Streamer

	mu     sync.Mutex
	ag     *agent.Agent
	rec    *session.Recorder     // nil: nothing is saved
	closed bool                  // the app has ended: resume nothing more
	others map[string]otherModel // other providers' models the /model picker listed, by label
}

// commands returns the slash commands for ui.Config.Commands.
func (ts *tuiSession) commands() map[string]func() tea.Cmd {
	cmds := map[string]func() tea.Cmd{"new": ts.newSession, "init": initCommand}
	if ts.cfg.ext != nil && ts.cfg.ext.needsTrust() {
		cmds["trust"] = ts.cfg.ext.trustCommand
	}
	return cmds
}

// current returns the agent and recorder in use.
func (ts *tuiSession) current() (*agent.Agent, *session.Recorder) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.ag, ts.rec
}

// close closes the current session file; a resume still under way when
// the app ends closes the file it opened itself.
func (ts *tuiSession) close() {
	ts.mu.Lock()
	ts.closed = true
	rec := ts.rec
	ts.mu.Unlock()
	if rec != nil {
		_ = rec.Close()
	}
}

// newSession is /new: a fresh conversation with an empty todo list, saved
// in a new session file (created with the first prompt). The previous
// session stays on disk for tick -c and --resume.
func (ts *tuiSession) newSession() tea.Cmd {
	_, old := ts.current()
	var rec *session.Recorder
	if old != nil {
		rec = session.NewRecorder(old.Dir(), ts.cfg.workspace, ts.model())
	}
	ag, err := newAgent(ts.config(), ts.client, rec)
	if err != nil {
		return noticeCmd(fmt.Sprintf("could not start a new session: %v", err))
	}
	ts.mu.Lock()
	ts.ag, ts.rec = ag, rec
	ts.mu.Unlock()
	note := "new session"
	if old != nil {
		if id := old.ID(); id != "" {
			note = fmt.Sprintf("new session · the previous one is %s (tick --resume %s)", id, id)
		}
		_ = old.Close()
	}
	return func() tea.Msg { return ui.ResetMsg{Agent: ag, Notice: note} }
}

// errNotSaved is what /sessions says when this run saves no sessions.
var errNotSaved = errors.New("sessions are not saved in this run")

// sessions lists the workspace's sessions for the /sessions picker, most
// recently used first, marking the one in use.
func (ts *tuiSession) sessions() ([]ui.SessionInfo, error) {
	_, rec := ts.current()
	if rec == nil || rec.Dir() == "" {
		return nil, errNotSaved
	}
	all, err := session.List(rec.Dir(), ts.cfg.workspace)
	if err != nil {
		return nil, err
	}
	cur := rec.ID()
	out := make([]ui.SessionInfo, len(all))
	for i, in := range all {
		out[i] = ui.SessionInfo{
			ID: in.ID, Started: in.Started, FirstPrompt: in.FirstPrompt,
			Done: in.Done, Total: in.Total, Turns: in.Turns, Current: cur != "" && in.ID == cur,
		}
	}
	return out, nil
}

// resume switches to the workspace's session id, for the /sessions picker:
// it opens the session's file (repairing it as tick -c does), gives a new
// agent its history and todo list, and closes the session in use. On error
// nothing changes; a session open in another tick gives an error wrapping
// ui.ErrSessionOpen, and the picker offers fork. The app calls it only
// while no turn runs.
func (ts *tuiSession) resume(id string) (ui.ResetMsg, error) {
	return ts.switchTo(id, "resume", session.Open)
}

// fork copies the workspace's session id, open in another tick, into a new
// session and switches to it, as resume does.
func (ts *tuiSession) fork(id string) (ui.ResetMsg, error) {
	return ts.switchTo(id, "fork", session.Fork)
}

// switchTo opens session id with open and makes it the conversation in use.
func (ts *tuiSession) switchTo(id, verb string, open func(string) (*session.Store, *session.Loaded, error)) (ui.ResetMsg, error) {
	_, old := ts.current()
	if old == nil || old.Dir() == "" {
		return ui.ResetMsg{}, errNotSaved
	}
	info, err := session.Find(old.Dir(), ts.cfg.workspace, id)
	if err != nil {
		return ui.ResetMsg{}, fmt.Errorf("find session %s: %w", id, err)
	}
	st, ld, err := open(info.Path)
	var locked *session.LockedError
	if errors.As(err, &locked) {
		return ui.ResetMsg{}, fmt.Errorf("%w%s", ui.ErrSessionOpen, pidNote(locked.PID))
	}
	if err != nil {
		return ui.ResetMsg{}, err
	}
	cfg := ts.config()
	useSessionModel(&cfg, ld)
	rec := session.Continue(old.Dir(), cfg.workspace, cfg.model, st)
	ag, err := newAgent(cfg, ts.client, rec)
	if err == nil {
		err = ag.Restore(ld.ModelHistory, ld.Todos)
	}
	if err != nil {
		_ = rec.Close()
		return ui.ResetMsg{}, fmt.Errorf("%s session %s: %w", verb, id, err)
	}
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		_ = rec.Close()
		return ui.ResetMsg{}, fmt.Errorf("%s session %s: the app has ended", verb, id)
	}
	ts.ag, ts.rec = ag, rec
	ts.mu.Unlock()
	_ = old.Close()
	ts.setModel(cfg.model, cfg.contextWindow)
	return ui.ResetMsg{Agent: ag, Model: cfg.model, History: agent.Replay(ld.History, ld.CompactedAt...), Todos: ld.Todos, Notice: strings.Join(sessionNotices(ld), "\n")}, nil
}

// pidNote is " (pid N)", or "" for an unknown pid.
func pidNote(pid int) string {
	if pid <= 0 {
		return ""
	}
	return fmt.Sprintf(" (pid %d)", pid)
}

// sessionNotices says which session was resumed and what its loading
// repaired, for the chat.
func sessionNotices(ld *session.Loaded) []string {
	return append([]string{resumedLine(ld)}, ld.Warnings...)
}

// noticeCmd returns a command that shows text in the chat.
func noticeCmd(text string) tea.Cmd {
	return func() tea.Msg { return ui.NoticeMsg{Text: text} }
}

// promptHistoryFile is where the app keeps the prompts sent in workspace:
// beside the sessions directory, one file per workspace named by a hash of
// its path. It is "" when there is no state directory.
func promptHistoryFile(env func(string) string, workspace string) string {
	dir, err := session.DefaultDir(env)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(workspace))
	return filepath.Join(filepath.Dir(dir), "history", hex.EncodeToString(sum[:8])+".jsonl")
}
