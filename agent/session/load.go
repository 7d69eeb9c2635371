package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
// naming it (both non-nil). A line longer than the cap (64 MiB) is
// skipped with a warning. A file that does not start with a session
// header gives an error wrapping ErrNotSession; any other error (the file
// cannot be read, or is a symbolic link) comes with a nil *Loaded. The
// file is read line by line, never whole.
func Load(path string) (*Loaded, error) {
	f, err := openFile(path, os.O_RDONLY)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", path, err)
	}
	defer f.Close()
	p, err := parse(f, path)
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
	good   int64
	needNL bool
}

// session is what parse collects, line by line.
type collected struct {
	hdr       *record
	hist      []provider.Message
	kept      []provider.Message
	compactAt int   // len(hist) at the latest compaction, -1: none
	marks     []int // len(hist) at each compaction
	todos     todo.List
	summary   string
	summaries []string // every compaction's, in order
	updated   time.Time
	warnings  []string
	model     string // the last model line's
	provider  string // and its provider
	plan      todo.UserPlan
	mode      *record // the last mode line
	tasks     map[string][]provider.Message
}

// add applies one decoded line.
func (c *collected) add(rec *record) {
	if !rec.Time.IsZero() {
		c.updated = rec.Time
	}
	switch {
	case c.hdr == nil:
		c.hdr = rec
		c.updated = rec.Started
		if rec.Version > Version {
			c.warnings = append(c.warnings, fmt.Sprintf("the session was written by a newer tick (format %d); unknown lines were skipped", rec.Version))
		}
	case rec.Type == typeMessage:
		c.hist = append(c.hist, *rec.Message)
	case rec.Type == typeTodo:
		c.todos = *rec.List
	case rec.Type == typeModel && rec.Model != "":
		c.model, c.provider = rec.Model, rec.Provider
	case rec.Type == typePlan:
		c.plan = *rec.Plan
	case rec.Type == typeMode:
		c.mode = rec
	case rec.Type == typeTask:
		if c.tasks == nil {
			c.tasks = map[string][]provider.Message{}
		}
		c.tasks[rec.Task] = rec.Messages
	case rec.Type == typeCompaction:
		c.summary, c.kept, c.compactAt = *rec.Summary, rec.Kept, len(c.hist)
		c.marks = append(c.marks, len(c.hist))
		c.summaries = append(c.summaries, *rec.Summary)
	}
}

// loaded builds the Loaded.
func (c *collected) loaded(path string) *Loaded {
	ld := assemble(c.hdr, path, c.hist, c.kept, c.compactAt, c.todos, c.updated)
	if c.model != "" {
		ld.Info.Model, ld.Info.ModelSwitched, ld.Info.Provider = c.model, true, c.provider
	}
	ld.Plan, ld.Tasks = c.plan, c.tasks
	if c.mode != nil {
		ld.Mode, ld.BeforePlan = c.mode.Mode, c.mode.Before
	}
	ld.Summary, ld.Compactions, ld.Summaries = c.summary, len(c.summaries), c.summaries
	ld.CompactedAt = repairedIndexes(c.hist, c.marks)
	ld.Warnings = append(c.warnings, ld.Warnings...)
	return ld
}

// parse reads a session file from r, a line at a time. It returns nil (and
// the error) when the file has no header or cannot be read; otherwise a
// result, with a *CorruptError when a middle line is damaged.
func parse(r io.Reader, path string) (*parsed, error) {
	lr := newLineReader(r, maxLoadLine)
	c := &collected{compactAt: -1}
	var (
		good    int64
		needNL  bool
		bad     *line // a damaged line, fatal if content follows it
		badErr  error
		badNum  int
		readErr error
	)
	for num := 1; ; num++ {
		ln, err := lr.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
		if ln.blank() {
			if ln.terminated && bad == nil {
				good = ln.next
			}
			continue
		}
		if bad != nil { // content after a damaged line: the damage is in the middle
			return &parsed{loaded: c.loaded(path), good: good, needNL: needNL}, &CorruptError{Path: path, Line: badNum, Err: badErr}
		}
		if ln.long && c.hdr != nil && ln.terminated {
			c.warnings = append(c.warnings, fmt.Sprintf("skipped line %d: its %d bytes are over the %d MiB a line may have", num, ln.size(), maxLoadLine>>20))
			good, needNL = ln.next, false
			continue
		}
		rec, err := decodeLine(bytes.TrimSpace(ln.text), c.hdr == nil)
		if ln.long && err == nil {
			err = fmt.Errorf("the line is over %d MiB", maxLoadLine>>20)
		}
		var skip *skippedError
		if errors.As(err, &skip) && ln.terminated {
			c.warnings = append(c.warnings, fmt.Sprintf("skipped line %d: %v", num, err))
			good, needNL = ln.next, false
			continue
		}
		if err != nil {
			if c.hdr == nil {
				return nil, fmt.Errorf("load session %s: %w", path, ErrNotSession)
			}
			l := ln
			bad, badErr, badNum = &l, err, num
			continue
		}
		good, needNL = ln.next, !ln.terminated
		c.add(rec)
	}
	if readErr != nil {
		return nil, fmt.Errorf("load session %s: %w", path, readErr)
	}
	if c.hdr == nil {
		return nil, fmt.Errorf("load session %s: %w", path, ErrNotSession)
	}
	if bad != nil {
		c.warnings = append(c.warnings, fmt.Sprintf("ignored a truncated last line (%d bytes)", lr.off-bad.start))
	}
	return &parsed{loaded: c.loaded(path), good: good, needNL: needNL}, nil
}

// decodeLine decodes and checks one non-blank line. first says whether it
// must be the header.
func decodeLine(text []byte, first bool) (*record, error) {
	var rec record
	if err := json.Unmarshal(text, &rec); err != nil {
		if t := lineType(text); !first && (t == typePlan || t == typeMode || t == typeTask) {
			return nil, &skippedError{fmt.Errorf("a %s line that cannot be read: %w", t, err)}
		}
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
	case typePlan, typeMode:
		if err := checkPlanMode(&rec); err != nil {
			return nil, &skippedError{err}
		}
	case typeTask:
		if rec.Task == "" {
			return nil, &skippedError{errors.New(`a task line without "task"`)}
		}
		for _, m := range rec.Messages {
			if err := checkRole(m); err != nil {
				return nil, &skippedError{fmt.Errorf("the transcript of task %q: %w", rec.Task, err)}
			}
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

// skippedError is a line that Load skips with a warning instead of
// stopping: a plan or mode line whose content is unusable (it is not the
// conversation, and losing it costs less than losing what follows it).
type skippedError struct{ err error }

func (e *skippedError) Error() string { return e.err.Error() }
func (e *skippedError) Unwrap() error { return e.err }

// lineType returns the "type" of a JSON object line whose other fields
// may not decode, or "".
func lineType(text []byte) string {
	var t struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(text, &t)
	return t.Type
}

// modeName reports whether s names a mode (agent.Mode's names).
func modeName(s string) bool { return s == "auto" || s == "ask" || s == "plan" }

// checkPlanMode checks a plan or mode line's content.
func checkPlanMode(rec *record) error {
	if rec.Type == typePlan {
		if rec.Plan == nil {
			return errors.New(`a plan line without "plan"`)
		}
		if err := rec.Plan.Validate(); err != nil {
			return fmt.Errorf("a plan line: %w", err)
		}
		return nil
	}
	if !modeName(rec.Mode) || (rec.Before != "" && !modeName(rec.Before)) {
		return fmt.Errorf("a mode line with the unknown mode %q (before %q)", rec.Mode, rec.Before)
	}
	return nil
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

// repairedIndexes maps indexes into hist to indexes into its repaired
// form: a compaction happens between complete rounds, so the prefix before
// it repairs to the same messages it has in the whole repaired history.
func repairedIndexes(hist []provider.Message, at []int) []int {
	if len(at) == 0 {
		return nil
	}
	out := make([]int, len(at))
	for i, n := range at {
		p, _, _ := repair(hist[:n])
		out[i] = len(p)
	}
	return out
}

// repair makes history valid for a strict server; see provider.Repair.
func repair(history []provider.Message) (out []provider.Message, answered, dropped int) {
	return provider.Repair(history, Interrupted)
}
