package printer

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

// Output formats of a headless run (--output-format).
const (
	FormatText       = "text"        // the answer on stdout, progress on stderr
	FormatJSON       = "json"        // progress on stderr, one Result object on stdout at the end
	FormatStreamJSON = "stream-json" // every event as a JSON line on stdout (--json)
)

// Start is the first event of a stream-json run: which session, model,
// workspace and tick it is, the tools offered, and the sandbox's mode and
// whether it is complete on this machine (every layer works).
type Start struct {
	SessionID       string   `json:"session_id,omitempty"`
	Model           string   `json:"model"`
	Workspace       string   `json:"workspace"`
	Version         string   `json:"version,omitempty"`
	Tools           []string `json:"tools,omitempty"`
	Sandbox         string   `json:"sandbox,omitempty"`
	SandboxComplete *bool    `json:"sandbox_complete,omitempty"`
}

// Type names the event in JSON.
func (Start) Type() string { return "start" }

// Tokens are the token totals of a run. Cached is the part of the prompt
// tokens the server read from its cache (as it reported it).
type Tokens struct {
	Prompt     int  `json:"prompt_tokens"`
	Cached     int  `json:"cached_prompt_tokens"`
	Completion int  `json:"completion_tokens"`
	Total      int  `json:"total_tokens"`
	Estimated  bool `json:"estimated,omitempty"` // some figures are tick's estimate
}

// Result is the summary of a headless run: what the printer saw of the
// turn's events, and how the run ended (ExitCode, ExitReason, IsError,
// which the caller fills in). It is the object of --output-format json
// and the last event ("result") of stream-json. Its names follow the
// result message of claude -p where they mean the same (is_error,
// duration_ms, duration_api_ms, num_turns, total_cost_usd).
type Result struct {
	SessionID  string `json:"session_id,omitempty"`
	IsError    bool   `json:"is_error"`
	Answer     string `json:"answer"`
	ExitCode   int    `json:"exit_code"`
	ExitReason string `json:"exit_reason"`
	// Message says why the run did not finish its work ("" when it did).
	Message string `json:"message,omitempty"`
	// Rounds and NumTurns are the same count: the parent's model calls.
	Rounds   int    `json:"rounds"`
	NumTurns int    `json:"num_turns"`
	Usage    Tokens `json:"usage"`
	// CostUSD is the cost of the priced calls (omitted when none was);
	// TotalCostUSD is always there: null unless every call's cost is
	// known (Unpriced counts the calls whose cost is not).
	CostUSD      *float64 `json:"cost_usd,omitempty"`
	TotalCostUSD *float64 `json:"total_cost_usd"`
	Unpriced     int      `json:"unpriced,omitempty"`
	Duration     int64    `json:"duration_ms"`
	DurationAPI  int64    `json:"duration_api_ms"`
	Model        string   `json:"model,omitempty"`
	Version      string   `json:"version,omitempty"`
	// Refused are the tool calls that were not run ("bash: git push").
	Refused []string `json:"refused,omitempty"`
	// Blocked are the commands the sandbox blocked.
	Blocked []string `json:"blocked,omitempty"`
	// FailedCommands counts the commands that exited non-zero (subagents'
	// too); LastFailed is the last of them.
	FailedCommands int            `json:"failed_commands"`
	LastFailed     *FailedCommand `json:"last_failed_command,omitempty"`
	// CancelledItems counts the items of the plan the model cancelled.
	CancelledItems int `json:"cancelled_items"`
	// OpenItems are the todo items still open when the turn ended.
	OpenItems []string `json:"open_items,omitempty"`
	// KeptCopies are the task copies kept unapplied (their directories).
	KeptCopies []string `json:"kept_copies,omitempty"`
	// FilesChanged are the workspace's files the run added, modified or
	// deleted (git metadata aside), as found by comparing the workspace
	// before and after; absent when it was not compared (text output, a
	// workspace too large).
	FilesChanged []FileChange `json:"files_changed,omitempty"`
	// Verify is the state of --verify's check when one was set.
	Verify *Verify `json:"verify,omitempty"`
	// Plan is the plan proposed in plan mode (--plan), rendered.
	Plan string `json:"plan,omitempty"`

	summaries  map[string]string // call id -> "tool: summary"
	finalSeen  bool
	planned    bool      // a plan was proposed (plan mode): its answer may be empty
	refusedGit int       // how many of Refused were writes into .git
	list       todo.List // the last list the turn showed
	start      time.Time
	apiTime    time.Duration
}

// FileChange is one file a run changed: its path in the workspace and
// how (FileAdded, FileModified, FileDeleted).
type FileChange struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// The kinds of a FileChange.
const (
	FileAdded    = "added"
	FileModified = "modified"
	FileDeleted  = "deleted"
)

// FailedCommand is a command that exited non-zero and its status.
type FailedCommand struct {
	Command  string `json:"command"`
	ExitCode int    `json:"exit_code"`
}

// Verify is what a --verify check came to: the command, its last exit
// status, how many times it ran and the tail of its last output.
type Verify struct {
	Command    string `json:"command"`
	ExitCode   *int   `json:"exit_code"`
	Attempts   int    `json:"attempts"`
	OutputTail string `json:"output_tail,omitempty"`
	Passed     bool   `json:"passed"`
}

// RefusedGit returns how many of the refused calls were writes into
// .git, which nothing allows unasked (not --yolo, not a rule).
func (r *Result) RefusedGit() int { return r.refusedGit }

// Type names the result event in stream-json.
func (*Result) Type() string { return "result" }

// JSON returns r as one JSON line (with "type":"result" when typed).
func (r *Result) JSON(typed bool) []byte {
	if !typed {
		b, _ := json.Marshal(r) // only strings and numbers: cannot fail
		return escapeUnsafe(b)
	}
	b, err := MarshalEvent(r)
	if err != nil {
		b = []byte(fmt.Sprintf(`{"type":"result","exit_code":%d}`, r.ExitCode))
	}
	return b
}

// observe adds what ev says to the summary. Subagents' tool calls count
// (refused, blocked, usage); only the parent's answer is the answer.
func (r *Result) observe(ev agent.Event, depth int) {
	switch e := ev.(type) {
	case agent.Subagent:
		r.observe(e.Event, depth+1)
	case agent.AssistantDone:
		if depth == 0 && (e.Final || !r.finalSeen) {
			r.Answer, r.finalSeen = e.Text, r.finalSeen || e.Final
		}
	case agent.ToolStart:
		if r.summaries == nil {
			r.summaries = map[string]string{}
		}
		r.summaries[e.ID] = strings.TrimSpace(e.Name + ": " + oneLine(e.Summary, 200))
	case agent.ToolEnd:
		s := r.summaries[e.ID]
		delete(r.summaries, e.ID) // a call ends once: the map holds the running ones
		if s == "" {
			s = e.Name
		}
		switch {
		case e.Refused:
			r.Refused = append(r.Refused, s)
			if e.GitWrite {
				r.refusedGit++
			}
		case e.Blocked:
			r.Blocked = append(r.Blocked, s)
		}
		if e.ExitCode != nil && *e.ExitCode != 0 {
			r.FailedCommands++
			r.LastFailed = &FailedCommand{Command: strings.TrimPrefix(s, e.Name+": "), ExitCode: *e.ExitCode}
		}
	case agent.Usage:
		r.usage(e, depth)
	case agent.TurnEnd:
		if depth == 0 && e.Reason != agent.ReasonDone && len(r.OpenItems) == 0 {
			for _, it := range r.list.Open() { // a budget or a signal stopped it: what was left
				r.OpenItems = append(r.OpenItems, it.Text)
			}
		}
	case agent.TodoUpdate:
		if depth == 0 {
			r.list = e.List
			r.CancelledItems = 0
			for _, it := range e.List.Items {
				if it.Status == todo.Cancelled {
					r.CancelledItems++
				}
			}
		}
	case agent.Verified:
		if depth == 0 {
			r.Verify = &Verify{Command: e.Command, ExitCode: e.ExitCode, Attempts: e.Attempt, OutputTail: e.OutputTail, Passed: e.Passed}
		}
	case agent.Notice:
		if e.KeptCopy != "" {
			r.KeptCopies = append(r.KeptCopies, e.KeptCopy)
		}
	case agent.PlanProposed:
		if depth == 0 {
			r.planned, r.Plan = true, e.List.Markdown()
		}
	case agent.Unfinished:
		if depth == 0 {
			r.OpenItems = r.OpenItems[:0]
			for _, it := range e.Items {
				r.OpenItems = append(r.OpenItems, it.Text)
			}
		}
	}
}

// usage adds one model call's usage: tokens, time, and its cost when
// it is known (else the call counts as unpriced).
func (r *Result) usage(e agent.Usage, depth int) {
	if depth == 0 {
		r.Rounds++
		r.NumTurns = r.Rounds
	}
	r.Usage.Prompt += e.PromptTokens
	r.Usage.Cached += max(e.CachedTokens, 0)
	r.Usage.Completion += e.CompletionTokens
	r.Usage.Total += e.PromptTokens + e.CompletionTokens
	r.Usage.Estimated = r.Usage.Estimated || e.Estimated
	r.apiTime += e.Duration
	r.DurationAPI = r.apiTime.Milliseconds()
	if e.CostFrom == "" && e.CostUSD == 0 {
		r.Unpriced++
	} else {
		c := e.CostUSD
		if r.CostUSD != nil {
			c += *r.CostUSD
		}
		r.CostUSD = &c
	}
	r.TotalCostUSD = nil
	if r.Unpriced == 0 && r.CostUSD != nil {
		c := *r.CostUSD
		r.TotalCostUSD = &c
	}
}

// SetList gives the result the plan the run starts from (a resumed
// session's, as the agent holds it after a restore or an undo): its
// cancelled items count, and its open items are the run's when a budget
// or a signal stops it before the model shows the list again.
func (p *Printer) SetList(l todo.List) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.result.observe(agent.TodoUpdate{List: l}, 0)
}

// Planned reports whether the turn proposed a plan (plan mode).
func (r *Result) Planned() bool { return r.planned }

// Result returns the summary of the turns run so far, with the duration
// since the printer was made.
func (p *Printer) Result() *Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.result.Duration = time.Since(p.result.start).Milliseconds()
	return &p.result
}

// Begin writes the first event of a stream-json run; in other formats it
// writes nothing. The session id is kept for the result.
func (p *Printer) Begin(s Start) {
	p.result.SessionID, p.result.Model, p.result.Version = s.SessionID, s.Model, s.Version
	if p.format() == FormatStreamJSON {
		p.json(s)
		p.flush()
	}
}

// Finish writes the result at the end of the run: the object on stdout
// (json), the last event (stream-json); nothing in text mode. It returns
// the first error writing the output met.
func (p *Printer) Finish(r *Result) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch p.format() {
	case FormatJSON:
		p.out.Write(r.JSON(false))
		p.out.WriteByte('\n')
	case FormatStreamJSON:
		p.out.Write(r.JSON(true))
		p.out.WriteByte('\n')
	}
	p.flush()
	return p.werr
}

// format returns the output format in effect.
func (p *Printer) format() string {
	switch {
	case p.opts.JSON:
		return FormatStreamJSON
	case p.opts.Format == "":
		return FormatText
	}
	return p.opts.Format
}

// CheckFormat returns an error unless v names an output format.
func CheckFormat(v string) error {
	switch v {
	case FormatText, FormatJSON, FormatStreamJSON:
		return nil
	}
	return fmt.Errorf("--output-format takes text, json or stream-json, not %q", v)
}

// StartError is the JSON event of a run that failed before its turn
// started (a bad flag, no model configured): the error and the exit code.
type StartError struct {
	Error    string `json:"error"`
	ExitCode int    `json:"exit_code"`
}

// Type names the event in JSON.
func (StartError) Type() string { return "error" }

// WantsJSON reports whether an output format (or --json) asks for JSON on
// stdout.
func WantsJSON(jsonFlag bool, format string) bool {
	return jsonFlag || format == FormatJSON || format == FormatStreamJSON
}

// WriteStartError writes a StartError as one JSON line on w.
func WriteStartError(w io.Writer, code int, msg string) error {
	b, err := MarshalEvent(StartError{Error: msg, ExitCode: code})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
