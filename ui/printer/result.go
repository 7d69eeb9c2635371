package printer

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent"
)

// Output formats of a headless run (--output-format).
const (
	FormatText       = "text"        // the answer on stdout, progress on stderr
	FormatJSON       = "json"        // progress on stderr, one Result object on stdout at the end
	FormatStreamJSON = "stream-json" // every event as a JSON line on stdout (--json)
)

// Start is the first event of a stream-json run: which session, model and
// workspace it is.
type Start struct {
	SessionID string `json:"session_id,omitempty"`
	Model     string `json:"model"`
	Workspace string `json:"workspace"`
}

// Type names the event in JSON.
func (Start) Type() string { return "start" }

// Tokens are the token totals of a run.
type Tokens struct {
	Prompt     int  `json:"prompt_tokens"`
	Completion int  `json:"completion_tokens"`
	Total      int  `json:"total_tokens"`
	Estimated  bool `json:"estimated,omitempty"` // some figures are tick's estimate
}

// Result is the summary of a headless run: what the printer saw of the
// turn's events, and how the run ended (ExitCode and ExitReason, which the
// caller fills in). It is the object of --output-format json and the last
// event ("result") of stream-json.
type Result struct {
	SessionID  string `json:"session_id,omitempty"`
	Answer     string `json:"answer"`
	ExitCode   int    `json:"exit_code"`
	ExitReason string `json:"exit_reason"`
	// Message says why the run did not finish its work ("" when it did).
	Message  string   `json:"message,omitempty"`
	Rounds   int      `json:"rounds"`
	Usage    Tokens   `json:"usage"`
	CostUSD  *float64 `json:"cost_usd,omitempty"` // by the price table, when the model's price is known
	Duration int64    `json:"duration_ms"`
	// Refused are the tool calls that were not run ("bash: git push").
	Refused []string `json:"refused,omitempty"`
	// Blocked are the commands the sandbox blocked.
	Blocked []string `json:"blocked,omitempty"`
	// OpenItems are the todo items still open when the turn ended.
	OpenItems []string `json:"open_items,omitempty"`

	summaries map[string]string // call id -> "tool: summary"
	finalSeen bool
	planned   bool // a plan was proposed (plan mode): its answer may be empty
	start     time.Time
}

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
		case e.Blocked:
			r.Blocked = append(r.Blocked, s)
		}
	case agent.Usage:
		if depth == 0 {
			r.Rounds++
		}
		r.Usage.Prompt += e.PromptTokens
		r.Usage.Completion += e.CompletionTokens
		r.Usage.Total += e.PromptTokens + e.CompletionTokens
		r.Usage.Estimated = r.Usage.Estimated || e.Estimated
		if e.CostUSD > 0 {
			c := e.CostUSD
			if r.CostUSD != nil {
				c += *r.CostUSD
			}
			r.CostUSD = &c
		}
	case agent.PlanProposed:
		r.planned = r.planned || depth == 0
	case agent.Unfinished:
		if depth == 0 {
			r.OpenItems = r.OpenItems[:0]
			for _, it := range e.Items {
				r.OpenItems = append(r.OpenItems, it.Text)
			}
		}
	}
}

// Planned reports whether the turn proposed a plan (plan mode).
func (r *Result) Planned() bool { return r.planned }

// Result returns the summary of the turns run so far, with the duration
// since the printer was made.
func (p *Printer) Result() *Result {
	p.result.Duration = time.Since(p.result.start).Milliseconds()
	return &p.result
}

// Begin writes the first event of a stream-json run; in other formats it
// writes nothing. The session id is kept for the result.
func (p *Printer) Begin(s Start) {
	p.result.SessionID = s.SessionID
	if p.format() == FormatStreamJSON {
		p.json(s)
		p.flush()
	}
}

// Finish writes the result at the end of the run: the object on stdout
// (json), the last event (stream-json); nothing in text mode. It returns
// the first error writing the output met.
func (p *Printer) Finish(r *Result) error {
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
