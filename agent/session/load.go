package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Load reads the session file at path.
//
// A truncated or garbled last line is ignored and said once in Warnings.
// A damaged line followed by more lines stops the load: Load then returns
// the session as it was before that line together with a *CorruptError
// naming it (both non-nil). A file that does not start with a session
// header gives an error wrapping ErrNotSession; any other error (the file
// cannot be read) comes with a nil *Loaded.
func Load(path string) (*Loaded, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", path, err)
	}
	p, err := parse(data, path)
	if p == nil {
		return nil, err
	}
	return p.loaded, err
}

// parsed is the outcome of parse: the session, how many leading bytes of
// the file are complete lines, and whether the last of them lacks its
// newline.
type parsed struct {
	loaded *Loaded
	good   int
	needNL bool
}

// span is one line of a file: data[start:end], followed by a newline when
// terminated; next is the offset after it.
type span struct {
	start, end, next int
	terminated       bool
}

// splitLines cuts data into lines.
func splitLines(data []byte) []span {
	var out []span
	for off := 0; off < len(data); {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			out = append(out, span{start: off, end: len(data), next: len(data)})
			break
		}
		out = append(out, span{start: off, end: off + i, next: off + i + 1, terminated: true})
		off += i + 1
	}
	return out
}

// lastNonBlank returns the index of the last line with content, or -1.
func lastNonBlank(data []byte, lines []span) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if len(bytes.TrimSpace(data[lines[i].start:lines[i].end])) > 0 {
			return i
		}
	}
	return -1
}

// parse reads a whole session file. It returns nil (and the error) when
// data has no header; otherwise a result, with a *CorruptError when a
// middle line is damaged.
func parse(data []byte, path string) (*parsed, error) {
	lines := splitLines(data)
	last := lastNonBlank(data, lines)
	var (
		hdr       *record
		hist      []provider.Message
		kept      []provider.Message
		compactAt = -1
		todos     todo.List
		summary   string
		compacts  int
		updated   time.Time
		warnings  []string
		good      int
		needNL    bool
	)
	build := func() *parsed {
		ld := assemble(hdr, path, hist, kept, compactAt, todos, updated)
		ld.Summary, ld.Compactions = summary, compacts
		ld.Warnings = append(warnings, ld.Warnings...)
		return &parsed{loaded: ld, good: good, needNL: needNL}
	}
	for i, ln := range lines {
		text := bytes.TrimSpace(data[ln.start:ln.end])
		if len(text) == 0 {
			if ln.terminated {
				good = ln.next
			}
			continue
		}
		rec, err := decodeLine(text, hdr == nil)
		if err != nil {
			if hdr == nil {
				return nil, fmt.Errorf("load session %s: %w", path, ErrNotSession)
			}
			if i == last {
				warnings = append(warnings, fmt.Sprintf("ignored a truncated last line (%d bytes)", len(data)-ln.start))
				break
			}
			return build(), &CorruptError{Path: path, Line: i + 1, Err: err}
		}
		good, needNL = ln.next, !ln.terminated
		if !rec.Time.IsZero() {
			updated = rec.Time
		}
		switch {
		case hdr == nil:
			hdr = rec
			updated = rec.Started
			if rec.Version > Version {
				warnings = append(warnings, fmt.Sprintf("the session was written by a newer tick (format %d); unknown lines were skipped", rec.Version))
			}
		case rec.Type == typeMessage:
			hist = append(hist, *rec.Message)
		case rec.Type == typeTodo:
			todos = *rec.List
		case rec.Type == typeCompaction:
			summary, kept, compactAt = *rec.Summary, rec.Kept, len(hist)
			compacts++
		}
	}
	if hdr == nil {
		return nil, fmt.Errorf("load session %s: %w", path, ErrNotSession)
	}
	return build(), nil
}

// decodeLine decodes and checks one non-blank line. first says whether it
// must be the header.
func decodeLine(text []byte, first bool) (*record, error) {
	var rec record
	if err := json.Unmarshal(text, &rec); err != nil {
		return nil, fmt.Errorf("not a JSON line: %w", err)
	}
	switch {
	case rec.Type == "":
		return nil, errors.New(`the line has no "type"`)
	case first && (rec.Type != typeSession || rec.ID == ""):
		return nil, errors.New("the first line is not a session header")
	case first:
		return &rec, nil
	}
	switch rec.Type {
	case typeMessage:
		if rec.Message == nil {
			return nil, errors.New(`a message line without "message"`)
		}
		if err := checkRole(*rec.Message); err != nil {
			return nil, err
		}
	case typeTodo:
		if rec.List == nil {
			return nil, errors.New(`a todo line without "list"`)
		}
	case typeCompaction:
		if rec.Summary == nil {
			return nil, errors.New(`a compaction line without "summary"`)
		}
		for _, m := range rec.Kept {
			if err := checkRole(m); err != nil {
				return nil, err
			}
		}
	}
	return &rec, nil
}

// checkRole fails for a message whose role is not one of the API's.
func checkRole(m provider.Message) error {
	switch m.Role {
	case provider.RoleUser, provider.RoleAssistant, provider.RoleTool, provider.RoleSystem:
		return nil
	}
	return fmt.Errorf("a message with the unknown role %q", m.Role)
}

// assemble builds a Loaded from what parse collected: hist is every
// message, kept the kept messages of the latest compaction, which happened
// when hist had compactAt messages (-1: none).
func assemble(hdr *record, path string, hist, kept []provider.Message, compactAt int, todos todo.List, updated time.Time) *Loaded {
	ld := &Loaded{Todos: todos}
	var answered, dropped int
	ld.History, answered, dropped = repair(hist)
	if compactAt >= 0 {
		mh := append(append([]provider.Message(nil), kept...), hist[compactAt:]...)
		ld.ModelHistory, _, _ = repair(mh)
	} else {
		ld.ModelHistory = append([]provider.Message(nil), ld.History...)
	}
	if answered > 0 {
		ld.Warnings = append(ld.Warnings, fmt.Sprintf("answered %d tool call(s) left without a result as interrupted", answered))
	}
	if dropped > 0 {
		ld.Warnings = append(ld.Warnings, fmt.Sprintf("dropped %d tool result(s) that answer no tool call", dropped))
	}
	ld.Info = Info{
		ID:        hdr.ID,
		Path:      path,
		Workspace: hdr.Workspace,
		Model:     hdr.Model,
		Started:   hdr.Started,
		Updated:   updated,
	}
	ld.Info.Done, ld.Info.Total = todos.Counts()
	for _, m := range ld.History {
		if m.Role == provider.RoleUser && !todo.IsReminder(m.Content) {
			if ld.Info.Turns == 0 {
				ld.Info.FirstPrompt = firstLine(m.Content)
			}
			ld.Info.Turns++
		}
	}
	return ld
}

// maxPrompt caps Info.FirstPrompt, in runes.
const maxPrompt = 200

// firstLine returns the first non-blank line of s, trimmed and cut to
// maxPrompt runes.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if utf8.RuneCountInString(l) > maxPrompt {
			r := []rune(l)
			l = string(r[:maxPrompt-1]) + "…"
		}
		return l
	}
	return ""
}

// repair makes history valid for a strict server; see provider.Repair.
func repair(history []provider.Message) (out []provider.Message, answered, dropped int) {
	return provider.Repair(history, Interrupted)
}
