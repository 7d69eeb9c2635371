package app

import (
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"github.com/tick-agent/tick/agent/session"
)

// sessionsDir returns the sessions directory for env and makes sure it
// exists (mode 0700), so that a problem with it is found before the run.
func sessionsDir(env func(string) string) (string, error) {
	dir, err := session.DefaultDir(env)
	if err != nil {
		return "", err
	}
	if err := session.MkdirUnderHome(dir, env("HOME")); err != nil {
		return "", fmt.Errorf("create the sessions directory: %w", err)
	}
	return dir, nil
}

// startSession prepares the persistence of this run as cfg asks. For a
// fresh session it returns a recorder (nil with --no-session, or with a
// warning on stderr when the sessions directory is unusable: the run goes
// on without saving). For --continue and --resume it opens the session,
// prints its warnings on stderr once, and returns what it loaded; failing
// to find or open that session is an error.
func startSession(cfg config, env func(string) string, stderr io.Writer) (*session.Recorder, *session.Loaded, error) {
	if !cfg.Continue && cfg.Resume == "" {
		if cfg.NoSession {
			return nil, nil, nil
		}
		dir, err := sessionsDir(env)
		if err != nil {
			fmt.Fprintf(stderr, "tick: not saving this session: %v\n", err)
			return nil, nil, nil
		}
		return session.NewRecorder(dir, cfg.Workspace, cfg.Settings.Model), nil, nil
	}
	dir, err := session.DefaultDir(env)
	if err != nil {
		return nil, nil, err
	}
	return CarryOn(Carry{Dir: dir, Workspace: cfg.Workspace, Model: cfg.Settings.Model, ID: cfg.Resume, ReadOnly: cfg.NoSession}, stderr)
}

// runSessions is `tick sessions`: the workspace's sessions, most recently
// used first, one per line (id, start time, turns, todo progress, first
// prompt), or a JSON array with --json.
func runSessions(cfg config, env func(string) string, stdout, stderr io.Writer) int {
	dir, err := session.DefaultDir(env)
	if err != nil {
		return fail(stderr, err)
	}
	all, err := session.List(dir, cfg.Workspace)
	if err != nil {
		return fail(stderr, err)
	}
	if cfg.JSON {
		if err := WriteSessionsJSON(stdout, all); err != nil {
			return fail(stderr, fmt.Errorf("write the sessions: %w", err))
		}
		return ExitOK
	}
	if len(all) == 0 {
		fmt.Fprintf(stderr, "tick: no sessions in %s yet; start one with tick\n", cfg.Workspace)
		return ExitOK
	}
	width := 0
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if w, _, err := term.GetSize(f.Fd()); err == nil {
			width = w
		}
	}
	if _, err := io.WriteString(stdout, FormatSessions(all, width)); err != nil {
		return fail(stderr, fmt.Errorf("write the sessions: %w", err))
	}
	return ExitOK
}
