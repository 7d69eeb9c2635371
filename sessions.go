package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/ui/app"
	"github.com/tick-agent/tick/ui/termsafe"
)

// sessionsDir returns the sessions directory for env and makes sure it
// exists (mode 0700), so that a problem with it is found before the run.
func sessionsDir(env func(string) string) (string, error) {
	dir, err := session.DefaultDir(env)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
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
	if !cfg.cont && cfg.resume == "" {
		if cfg.noSession {
			return nil, nil, nil
		}
		dir, err := sessionsDir(env)
		if err != nil {
			fmt.Fprintf(stderr, "tick: not saving this session: %v\n", err)
			return nil, nil, nil
		}
		return session.NewRecorder(dir, cfg.workspace, cfg.model), nil, nil
	}
	dir, err := session.DefaultDir(env)
	if err != nil {
		return nil, nil, err
	}
	info, err := findSession(cfg, dir)
	if err != nil {
		return nil, nil, err
	}
	var (
		rec *session.Recorder
		ld  *session.Loaded
	)
	if cfg.noSession {
		// Resume without saving: read the file, leave it as it is.
		var lerr error
		ld, lerr = session.Load(info.Path)
		if ld == nil {
			return nil, nil, fmt.Errorf("resume session %s: %w", info.ID, lerr)
		}
		if lerr != nil {
			ld.Warnings = append([]string{lerr.Error()}, ld.Warnings...)
		}
	} else {
		st, loaded, err := session.Open(info.Path)
		var locked *session.LockedError
		if errors.As(err, &locked) {
			return nil, nil, fmt.Errorf("session %s is open in another tick%s; quit that one first, or run tick without -c/--resume for a new session", info.ID, app.PIDNote(locked.PID))
		}
		if err != nil {
			return nil, nil, fmt.Errorf("resume session %s: %w", info.ID, err)
		}
		rec, ld = session.Continue(dir, cfg.workspace, cfg.model, st), loaded
	}
	for _, w := range ld.Warnings {
		fmt.Fprintf(stderr, "tick: session %s: %s\n", info.ID, w)
	}
	return rec, ld, nil
}

// findSession returns the session --continue or --resume names.
func findSession(cfg config, dir string) (session.Info, error) {
	if cfg.resume == "" {
		info, err := session.Latest(dir, cfg.workspace)
		if errors.Is(err, session.ErrNoSession) {
			return info, fmt.Errorf("no earlier session in %s; start one with tick", cfg.workspace)
		}
		return info, err
	}
	info, err := session.Find(dir, cfg.workspace, cfg.resume)
	if errors.Is(err, session.ErrNoSession) {
		return info, fmt.Errorf("no session %q in %s; tick sessions lists them", cfg.resume, cfg.workspace)
	}
	return info, err
}

// promptWidth is the width of the first prompt in `tick sessions` when
// stdout is not a terminal.
const promptWidth = 60

// runSessions is `tick sessions`: the workspace's sessions, most recently
// used first, one per line (id, start time, turns, todo progress, first
// prompt), or a JSON array with --json.
func runSessions(cfg config, env func(string) string, stdout, stderr io.Writer) int {
	dir, err := session.DefaultDir(env)
	if err != nil {
		return fail(stderr, err)
	}
	all, err := session.List(dir, cfg.workspace)
	if err != nil {
		return fail(stderr, err)
	}
	if cfg.json {
		if err := writeSessionsJSON(stdout, all); err != nil {
			return fail(stderr, fmt.Errorf("write the sessions: %w", err))
		}
		return exitOK
	}
	if len(all) == 0 {
		fmt.Fprintf(stderr, "tick: no sessions in %s yet; start one with tick\n", cfg.workspace)
		return exitOK
	}
	width := 0
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if w, _, err := term.GetSize(f.Fd()); err == nil {
			width = w
		}
	}
	if _, err := io.WriteString(stdout, formatSessions(all, width)); err != nil {
		return fail(stderr, fmt.Errorf("write the sessions: %w", err))
	}
	return exitOK
}

// formatSessions renders the listing. width is the terminal's width (0 when
// stdout is not one): the first prompt is cut to fit it, or to promptWidth.
func formatSessions(all []session.Info, width int) string {
	type row struct{ id, started, turns, todo, prompt string }
	rows := make([]row, len(all))
	var wID, wNum, wTurns, wTodo int
	for _, in := range all {
		wNum = max(wNum, len(fmt.Sprint(in.Turns)))
	}
	for i, in := range all {
		r := row{
			id:      in.ID,
			started: in.Started.Local().Format("2006-01-02 15:04"),
			turns:   fmt.Sprintf("%*d %s", wNum, in.Turns, plural(in.Turns, "turn")),
			todo:    "-",
			prompt:  termsafe.Line(in.FirstPrompt),
		}
		if in.Total > 0 {
			r.todo = fmt.Sprintf("%d/%d", in.Done, in.Total)
		}
		if r.prompt == "" {
			r.prompt = "(no prompt)"
		}
		wID, wTurns, wTodo = max(wID, len(r.id)), max(wTurns, len(r.turns)), max(wTodo, len(r.todo))
		rows[i] = r
	}
	var b strings.Builder
	for _, r := range rows {
		line := fmt.Sprintf("%-*s  %s  %-*s  %-*s  ", wID, r.id, r.started, wTurns, r.turns, wTodo, r.todo)
		room := promptWidth
		if width > 0 {
			room = max(width-ansi.StringWidth(line)-1, 10)
		}
		b.WriteString(line)
		b.WriteString(ansi.Truncate(r.prompt, room, "…"))
		b.WriteByte('\n')
	}
	return b.String()
}

// plural returns noun for n == 1, else its plural: "turn", "turns".
func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// sessionJSON is one session in `tick sessions --json`.
type sessionJSON struct {
	ID          string    `json:"id"`
	Started     time.Time `json:"started"`
	Updated     time.Time `json:"updated"`
	Turns       int       `json:"turns"`
	Done        int       `json:"todo_done"`
	Total       int       `json:"todo_total"`
	FirstPrompt string    `json:"first_prompt"`
	Model       string    `json:"model,omitempty"`
	Path        string    `json:"path"`
}

// writeSessionsJSON writes all as one JSON array (empty when there are
// none).
func writeSessionsJSON(w io.Writer, all []session.Info) error {
	out := make([]sessionJSON, len(all))
	for i, in := range all {
		out[i] = sessionJSON{
			ID: in.ID, Started: in.Started, Updated: in.Updated, Turns: in.Turns,
			Done: in.Done, Total: in.Total, FirstPrompt: in.FirstPrompt, Model: in.Model, Path: in.Path,
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
