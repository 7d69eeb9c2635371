package app

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
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/ui"
)

// runTUI opens the full-screen app on the terminal until the user quits.
// It needs a terminal on stdin and stdout. The first frame is drawn for
// the background COLORFGBG says (else dark) without waiting for the
// terminal; the app asks the terminal once it runs and restyles itself if
// the answer differs.
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
// tuiSession and package ui/app); /compact is built into the app.
func runTUI(cfg config, client agent.Streamer, ag *agent.Agent, rec *session.Recorder, ld *session.Loaded, stdin io.Reader, stdout, stderr io.Writer) int {
	in, out, err := terminals(stdin, stdout)
	if err != nil {
		return fail(stderr, err)
	}
	defer runtime.GOMAXPROCS(tuiProcs(os.Getenv("GOMAXPROCS")))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGHUP)
	defer stop()
	terminated, stopTerm := watchTerm()
	defer stopTerm()
	drawn := sync.OnceFunc(func() {
		if cfg.drawn != nil {
			close(cfg.drawn)
		}
	})
	defer drawn() // whatever happened to the first frame
	ts := newTUISession(cfg, client, ag, rec)
	defer ts.Close()
	uc := tuiConfig(cfg, ts, ag, rec, ld, out, drawn)
	_, _ = io.WriteString(out, saveTitle)
	err = ui.Run(ctx, uc, tea.WithInput(in), tea.WithOutput(out))
	_, _ = io.WriteString(out, restoreTerminal)
	term := terminated() // once: it takes the signal off its channel
	curAg, cur := ts.Current()
	if curAg == nil {
		curAg = ag
	}
	if line := curAg.StopMerges(); line != "" { // a task's patch is all or nothing
		fmt.Fprint(stderr, exitLine(line))
	}
	if cur != nil && !term {
		if line := resumeHint(cur.ID(), cfg.Workspace); line != "" {
			fmt.Fprintln(out, line) // the screen is the user's again: the way back
		}
	}
	switch {
	case term:
		return ExitTerminated
	case errors.Is(err, tea.ErrInterrupted):
		return ExitInterrupted
	case err != nil:
		return fail(stderr, err)
	}
	return ExitOK
}

// Terminal state the app changes and gives back: the window title is
// pushed on the terminal's title stack before the app sets its own and
// popped after it quits (XTWINOPS 22/23; terminals without a stack ignore
// both), and the cursor shape goes back to the terminal's default
// (DECSCUSR 0).
const (
	saveTitle       = "\x1b[22;0t"
	restoreTerminal = "\x1b[0 q\x1b[23;0t"
)

// resumeHint is the line printed after the app quits saying how to carry
// on with session id of workspace ("" when nothing was saved): tick -c
// from the workspace, or tick --resume ID (with -C when the shell is in
// another directory).
func resumeHint(id, workspace string) string {
	if id == "" {
		return ""
	}
	where := ""
	if wd, err := os.Getwd(); err != nil || !sameDir(wd, workspace) {
		where = " -C " + tools.ShellQuote(workspace)
	}
	return fmt.Sprintf("To carry on with this conversation: tick -c%s   (or: tick --resume %s%s)", where, id, where)
}

// sameDir reports whether a and b are the same directory.
func sameDir(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// tuiConfig is the full-screen app's configuration for cfg: the agent
// and its conversation (ts), the resumed session ld (nil: none), the
// screen out, and drawn, called once the first frame is on screen.
func tuiConfig(cfg config, ts *tuiSession, ag *agent.Agent, rec *session.Recorder, ld *session.Loaded, out *os.File, drawn func()) ui.Config {
	dark, ask := ui.Theme(themeSetting(cfg), cfg.ColorFGBG)
	uc := ui.Config{
		Agent:         ag,
		Model:         cfg.Settings.Model,
		Workspace:     cfg.Workspace,
		Yolo:          cfg.Yolo,
		Services:      newAppServices(cfg, ts),
		LateNotice:    cfg.served.lateNotice(),
		ModelCheck:    modelCheck(cfg),
		SandboxReady:  sandboxReady(cfg),
		Dark:          dark,
		AskBackground: ask,
		FirstFrame:    drawn,
		Profile:       stdoutProfile(out),
		Version:       Version,
		Commands:      ts.commands(),
		Screen:        out,
		Env:           os.Environ(),

		CommandHelp: map[string]string{"new": "start a new conversation", "init": "have the model write AGENTS.md", "trust": "allow this project's MCP servers and hooks"},
		HistoryFile: cfg.historyFile,
		Prompt:      cfg.Initial,
		ConfigPath:  cfg.Settings.UserFile,
		NoMouse:     !cfg.Settings.MouseOn(),
	}
	if cfg.instructionsLine != "" {
		uc.Notices = append(uc.Notices, cfg.instructionsLine)
	}
	uc.Notices = append(append(uc.Notices, cfg.notices...), cfg.Settings.Warnings...)
	if x := cfg.ext; x != nil {
		uc.Notices = append(uc.Notices, x.notices...)
		uc.Custom, uc.MCP = x.uiCustom(), x.uiMCP()
	}
	if ld != nil {
		uc.History, uc.Todos = History(ag, ld), ld.Todos
		uc.Notices = append(uc.Notices, Notices(ld)...)
	}
	if rec == nil && !cfg.NoSession {
		uc.Notices = append(uc.Notices, "this session is not saved: the sessions directory is not usable (the reason is printed on stderr)")
	}
	return uc
}

// stdoutProfile is out's colour profile when out is the process's
// standard output: Lip Gloss detected that one when it was initialised,
// and detecting it again runs `tmux info` inside tmux. Unknown otherwise
// (the app detects it).
func stdoutProfile(out *os.File) colorprofile.Profile {
	if out.Fd() != os.Stdout.Fd() {
		return colorprofile.Unknown
	}
	return lipgloss.Writer.Profile
}

// watchTerm records a SIGTERM without acting on it: the full-screen app
// quits on SIGTERM by itself (Bubble Tea's handler), stopping the turn and
// then the MCP servers; terminated reports afterwards whether it came, so
// that tick exits 143.
func watchTerm() (terminated func() bool, stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	return func() bool {
		select {
		case <-sigs:
			return true
		default:
			return false
		}
	}, func() { signal.Stop(sigs) }
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

// tuiSession wires the app's conversation (Session: /new, the
// /sessions picker's resume and fork) to this run's config and model
// client, and adds the /model picker's provider side (modelcmd.go).
type tuiSession struct {
	*Session
	cfg    config // the run's config; the model in use is the Session's
	client agent.Streamer

	mu     sync.Mutex
	others map[string]otherModel // other providers' models the /model picker listed, by label
}

// newTUISession returns the app's conversation holding ag, saving through
// rec (nil: nothing is saved), making new agents for cfg talking to client.
func newTUISession(cfg config, client agent.Streamer, ag *agent.Agent, rec *session.Recorder) *tuiSession {
	ts := &tuiSession{cfg: cfg, client: client}
	ts.Session = New(Options{
		Workspace:     cfg.Workspace,
		Model:         cfg.Settings.Model,
		ContextWindow: cfg.Settings.ContextWindow,
		NewAgent: func(model string, window int, rec *session.Recorder) (*agent.Agent, error) {
			return newAgent(cfg.withModel(model, window), client, rec)
		},
		SessionModel: func(ld *session.Loaded, model string, window int) (string, int) {
			c := cfg.withModel(model, window)
			if ld != nil && ld.Info.Provider != "" && ld.Info.Provider != c.Settings.Provider {
				return model, window // the picker keeps this run's server, and its model
			}
			useSessionModel(&c, ld)
			return c.Settings.Model, c.Settings.ContextWindow
		},
		KeepMode: cfg.Plan,
	}, ag, rec)
	return ts
}

// commands returns the slash commands for ui.Config.Commands.
func (ts *tuiSession) commands() map[string]func() tea.Cmd {
	cmds := map[string]func() tea.Cmd{"new": ts.NewSession, "init": initCommand}
	if ts.cfg.ext != nil && ts.cfg.ext.trustable() {
		cmds["trust"] = ts.cfg.ext.trustCommand
	}
	return cmds
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

// afterDrawn blocks until the app's first frame is drawn (config.drawn;
// at once when drawn is nil) or stop is closed, and reports whether the
// frame came first. Background work start-up does not need waits on it.
func afterDrawn(drawn, stop <-chan struct{}) bool {
	if drawn == nil {
		return true
	}
	select {
	case <-drawn:
		return true
	case <-stop:
		return false
	}
}

// themeSetting is the theme asked for: TICK_THEME, else the config's.
func themeSetting(cfg config) string {
	if cfg.ThemeEnv != "" {
		return cfg.ThemeEnv
	}
	if cfg.Settings == nil {
		return ""
	}
	return cfg.Settings.Theme
}
