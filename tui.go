package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
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
// app shows its transcript and its todo list collapsed. rec is the session
// being saved (nil: nothing is saved). The slash commands /new, /compact
// and /sessions are wired here (see tuiSession).
func runTUI(cfg config, client agent.Streamer, ag *agent.Agent, rec *sessionRecorder, ld *session.Loaded, stdin io.Reader, stdout, stderr io.Writer) int {
	in, out, err := terminals(stdin, stdout)
	if err != nil {
		return fail(stderr, err)
	}
	dark := detectDark(cfg.colorFGBG, bgQueryTimeout)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGHUP)
	defer stop()
	ts := &tuiSession{ctx: ctx, cfg: cfg, client: client, ag: ag, rec: rec}
	defer ts.close()
	uc := ui.Config{
		Agent:     ag,
		Model:     cfg.model,
		Workspace: cfg.workspace,
		Yolo:      cfg.yolo,
		Dark:      dark,
		Version:   version,
		Commands:  ts.commands(),
	}
	if ld != nil {
		uc.History, uc.Todos = ld.History, ld.Todos
	}
	err = ui.Run(ctx, uc, tea.WithInput(in), tea.WithOutput(out))
	switch {
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
// /compact compacts the current conversation, /sessions lists the
// workspace's sessions. The command functions run in the app's update
// loop; the work that takes time runs in the returned tea.Cmd.
type tuiSession struct {
	ctx    context.Context
	cfg    config
	client agent.Streamer

	mu  sync.Mutex
	ag  *agent.Agent
	rec *sessionRecorder // nil: nothing is saved
}

// commands returns the slash commands for ui.Config.Commands.
func (ts *tuiSession) commands() map[string]func() tea.Cmd {
	return map[string]func() tea.Cmd{
		"new":      ts.newSession,
		"compact":  ts.compact,
		"sessions": ts.list,
	}
}

// current returns the agent and recorder in use.
func (ts *tuiSession) current() (*agent.Agent, *sessionRecorder) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.ag, ts.rec
}

// close closes the current session file.
func (ts *tuiSession) close() {
	if _, rec := ts.current(); rec != nil {
		_ = rec.Close()
	}
}

// newSession is /new: a fresh conversation with an empty todo list, saved
// in a new session file (created with the first prompt). The previous
// session stays on disk for tick -c and --resume.
func (ts *tuiSession) newSession() tea.Cmd {
	_, old := ts.current()
	var rec *sessionRecorder
	if old != nil {
		rec = newRecorder(old.dir, ts.cfg.workspace, ts.cfg.model)
	}
	ag, err := newAgent(ts.cfg, ts.client, rec)
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

// compact is /compact: the model summarises the conversation so far, and
// the summary, the todo list and the last exchanges replace it in what is
// sent from now on (the session file keeps everything).
func (ts *tuiSession) compact() tea.Cmd {
	ag, _ := ts.current()
	ctx := ts.ctx
	return func() tea.Msg {
		var notes []string
		for ev := range ag.Compact(ctx) {
			switch e := ev.(type) {
			case agent.Compacted:
				notes = append(notes, fmt.Sprintf("context compacted: ~%d → ~%d tokens", e.Before, e.After))
			case agent.Notice:
				notes = append(notes, e.Text)
			case agent.TurnEnd:
				switch {
				case errors.Is(e.Err, agent.ErrBusy):
					notes = append(notes, "cannot compact while a turn runs")
				case e.Reason == agent.ReasonError:
					notes = append(notes, "could not compact the conversation: "+e.Error)
				case e.Reason == agent.ReasonInterrupted:
					notes = append(notes, "compaction interrupted")
				}
			}
		}
		if len(notes) == 0 {
			notes = append(notes, "nothing to compact")
		}
		return ui.NoticeMsg{Text: strings.Join(notes, "\n")}
	}
}

// list is /sessions: the workspace's sessions as a notice, with how to
// resume one.
func (ts *tuiSession) list() tea.Cmd {
	_, rec := ts.current()
	cfg := ts.cfg
	return func() tea.Msg {
		if rec == nil || rec.dir == "" {
			return ui.NoticeMsg{Text: "sessions are not saved in this run"}
		}
		all, err := session.List(rec.dir, cfg.workspace)
		switch {
		case err != nil:
			return ui.NoticeMsg{Text: err.Error()}
		case len(all) == 0:
			return ui.NoticeMsg{Text: "no saved sessions in " + cfg.workspace + " yet"}
		}
		return ui.NoticeMsg{Text: formatSessions(all, 0) + "resume one with tick --resume ID"}
	}
}

// noticeCmd returns a command that shows text in the chat.
func noticeCmd(text string) tea.Cmd {
	return func() tea.Msg { return ui.NoticeMsg{Text: text} }
}
