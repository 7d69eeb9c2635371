package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/ui/termsafe"
)

// Carry says which saved session a run carries on with (tick -c,
// tick --resume ID).
type Carry struct {
	Dir       string // the sessions directory
	Workspace string
	Model     string // the model the run starts with
	// ID is the session --resume names (a unique prefix will do); ""
	// means the latest one of the workspace (-c).
	ID string
	// ReadOnly (--no-session) reads the session and leaves its file as
	// it is: no recorder is returned.
	ReadOnly bool
}

// CarryOn opens the session c names, prints its load warnings on stderr
// once ("tick: session ID: ..."), and returns a recorder that continues its
// file (nil when ReadOnly) and what it loaded. Failing to find or open the
// session is an error saying what to do; one open in another tick names
// its pid.
func CarryOn(c Carry, stderr io.Writer) (*session.Recorder, *session.Loaded, error) {
	info, err := findSession(c)
	if err != nil {
		return nil, nil, err
	}
	var (
		rec *session.Recorder
		ld  *session.Loaded
	)
	if c.ReadOnly {
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
			return nil, nil, fmt.Errorf("session %s is open in another tick%s; quit that one first, or run tick without -c/--resume for a new session", info.ID, PIDNote(locked.PID))
		}
		if err != nil {
			return nil, nil, fmt.Errorf("resume session %s: %w", info.ID, err)
		}
		rec, ld = session.Continue(c.Dir, c.Workspace, c.Model, st), loaded
	}
	for _, w := range ld.Warnings {
		fmt.Fprintf(stderr, "tick: session %s: %s\n", termsafe.Text(info.ID), termsafe.Text(w))
	}
	return rec, ld, nil
}

// findSession returns the session c names.
func findSession(c Carry) (session.Info, error) {
	if c.ID == "" {
		info, err := session.Latest(c.Dir, c.Workspace)
		if errors.Is(err, session.ErrNoSession) {
			return info, fmt.Errorf("no earlier session in %s; start one with tick", c.Workspace)
		}
		return info, err
	}
	if strings.HasSuffix(c.ID, ".jsonl") || strings.ContainsRune(c.ID, filepath.Separator) {
		return sessionFile(c)
	}
	info, err := session.Find(c.Dir, c.Workspace, c.ID)
	if errors.Is(err, session.ErrNoSession) {
		if other, e := session.FindAnywhere(c.Dir, c.ID); e == nil {
			return info, fmt.Errorf("no session %q in %s: it belongs to the workspace %s (tick -C %s --resume %s)", c.ID, c.Workspace, other.Workspace, other.Workspace, other.ID)
		}
		return info, fmt.Errorf("no session %q in %s; tick sessions lists them", c.ID, c.Workspace)
	}
	return info, err
}

// sessionFile is the session whose file --resume names (a path in place
// of an id), when it belongs to the workspace.
func sessionFile(c Carry) (session.Info, error) {
	info, err := session.InfoOf(c.ID)
	if err != nil {
		return info, err
	}
	ws, err := filepath.Abs(c.Workspace)
	if real, e := filepath.EvalSymlinks(ws); e == nil {
		ws = real
	}
	if err == nil && info.Workspace != ws {
		return info, fmt.Errorf("session file %s belongs to the workspace %s, not %s (tick -C %s --resume %s)", c.ID, info.Workspace, ws, info.Workspace, c.ID)
	}
	return info, nil
}

// promptWidth is the width of the first prompt in `tick sessions` when
// stdout is not a terminal.
const promptWidth = 60

// FormatSessions renders the `tick sessions` listing, one session a line
// (id, start time, turns, todo progress, first prompt made safe for the
// terminal). width is the terminal's width (0 when stdout is not one): the
// first prompt is cut to fit it, or to 60 columns.
func FormatSessions(all []session.Info, width int) string {
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

// SessionJSON is one session in `tick sessions --json`.
type SessionJSON struct {
	ID          string    `json:"id"`
	Started     time.Time `json:"started"`
	Updated     time.Time `json:"updated"`
	Turns       int       `json:"turns"`
	Done        int       `json:"todo_done"`
	Total       int       `json:"todo_total"`
	FirstPrompt string    `json:"first_prompt"`
	Title       string    `json:"title"`
	Model       string    `json:"model,omitempty"`
	Path        string    `json:"path"`
}

// WriteSessionsJSON writes all as one indented JSON array of SessionJSON
// (empty when there are none).
func WriteSessionsJSON(w io.Writer, all []session.Info) error {
	out := make([]SessionJSON, len(all))
	for i, in := range all {
		out[i] = SessionJSON{
			ID: in.ID, Started: in.Started, Updated: in.Updated, Turns: in.Turns,
			Done: in.Done, Total: in.Total, FirstPrompt: in.FirstPrompt, Title: in.Title(), Model: in.Model, Path: in.Path,
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
