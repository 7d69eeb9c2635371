// Package printer is tick's headless front-end, used by `tick -p`: it reads
// the events of one agent turn and writes them as lines.
//
// In text mode the final answer goes to stdout and the progress to stderr:
// every todo update as the rendered list, every tool call as one line and
// one result line, retries and notices, a subagent's calls indented under
// its task call. In JSON mode every event is one JSON object per line on
// stdout (see MarshalEvent) and nothing is written to stderr.
//
// Every string of every event goes through termsafe before it is written
// in text mode, and the TurnEnd that Run returns is sanitised too: nothing
// the model or a server sends can write a control sequence to the terminal.
// (JSON mode escapes control characters instead.)
//
// The printer never stops reading its channel before it closes, so the agent
// never blocks on it; a failed write is remembered and reported by Run once
// the turn is over. It answers an ApprovalRequest at once with a denial,
// since nobody is there to approve in headless mode.
package printer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/termsafe"
)

// ErrNoTurnEnd is the error of the TurnEnd that Run reports when the event
// channel closed without one.
var ErrNoTurnEnd = errors.New("the agent's event stream ended without a turn end")

// HeadlessDenial is the reason given to the model when the printer denies an
// approval request.
const HeadlessDenial = "tick is running headless (-p), so nobody can approve this; the user must rerun with --yolo to allow commands and file changes"

// modelMark starts every line of the model's own text on stderr (verbose:
// its text between tool calls, its reasoning), as "│ " starts a command's
// output: a model writing "→ bash  …" or "✓ 0.3s" cannot pass for tick.
const modelMark = "› "

// Options select the output format.
type Options struct {
	// JSON writes every event as one JSON line on stdout instead of text.
	JSON bool
	// Verbose adds, on stderr, the model's text between tool calls, its
	// reasoning, the first lines of each tool's output and token usage.
	Verbose bool
	// Color uses ANSI colours on stderr (text mode only).
	Color bool
	// Format is the output format (FormatText, FormatJSON,
	// FormatStreamJSON); "" is text, and JSON means stream-json. With
	// FormatJSON the progress is written as in text mode and stdout gets
	// only the Result (see Finish).
	Format string
}

// Printer writes the events of turns to stdout and stderr. A Printer is used
// by one goroutine at a time; Run may be called again for the next turn.
type Printer struct {
	out  *bufio.Writer
	err  *bufio.Writer
	opts Options
	werr error // first write error, sticky
	used bool  // something was written on stderr
	// result is the summary of the turns, for Finish.
	result Result
	// mu is held while an event is printed; after abandon, Run prints
	// nothing more (a second signal: the result is written without
	// waiting for the turn).
	mu        sync.Mutex
	abandoned bool
}

// abandon stops Run from printing further events: what it was printing
// is done when abandon returns, and the rest of the events are drained
// unprinted.
func (p *Printer) abandon() {
	p.mu.Lock()
	p.abandoned = true
	p.mu.Unlock()
}

// New returns a Printer writing the answer (or the JSON lines) to stdout and
// the progress to stderr.
func New(stdout, stderr io.Writer, opts Options) *Printer {
	return &Printer{
		out:    bufio.NewWriterSize(stdout, 32<<10),
		err:    bufio.NewWriterSize(stderr, 8<<10),
		opts:   opts,
		result: Result{start: time.Now()},
	}
}

// turn is the state of one Run in text mode.
type turn struct {
	pending   strings.Builder      // top-level answer text streamed since the last AssistantDone
	last      string               // text of the last top-level AssistantDone
	final     bool                 // the final answer was written
	reasoning strings.Builder      // verbose: reasoning waiting to be shown
	live      map[string]*liveTool // verbose: running calls' output shown so far
	tasks     map[string]taskLabel // the running task calls' labels, by id (see taskPrefix)
	prefix    string               // the prefix of the subagent event being written
}

// liveTool is how much of a running call's output (ToolOutput) was shown.
type liveTool struct {
	seen    int64  // bytes of output accounted for
	partial string // the start of a line not ended yet
}

// Run reads events until the channel closes and returns the turn's TurnEnd
// (its Err says why a turn failed). If the channel closes without a TurnEnd,
// the returned TurnEnd has ReasonError and ErrNoTurnEnd. The error is not
// the turn's: it is non-nil only when writing the output failed, and then
// the first such error, wrapped; events are still read to the end.
func (p *Printer) Run(events <-chan agent.Event) (agent.TurnEnd, error) {
	var (
		t    turn
		end  agent.TurnEnd
		seen bool
	)
	for ev := range events {
		if r, ok := ev.(agent.ApprovalRequest); ok {
			deny(r)
		}
		printed, ok := p.printEvent(&t, ev, events)
		if !ok {
			continue
		}
		if e, ok := printed.(agent.TurnEnd); ok {
			end, seen = termsafe.Strings(e), true
		}
	}
	if !seen {
		end = agent.TurnEnd{Reason: agent.ReasonError, Err: ErrNoTurnEnd, Error: ErrNoTurnEnd.Error()}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flush()
	if p.werr != nil {
		return end, fmt.Errorf("printer: write output: %w", p.werr)
	}
	return end, nil
}

// printEvent observes and prints one event, unless the run was abandoned
// (then it reports false), and returns it as printed (a TurnEnd with its
// Error set from its Err).
func (p *Printer) printEvent(t *turn, ev agent.Event, events <-chan agent.Event) (agent.Event, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.abandoned {
		return ev, false
	}
	if e, ok := ev.(agent.TurnEnd); ok && e.Err != nil && e.Error == "" {
		e.Error = e.Err.Error()
		ev = e
	}
	p.result.observe(ev, 0)
	if p.format() == FormatStreamJSON {
		p.json(ev)
	} else {
		p.text(t, safeEvent(ev), 0)
	}
	if len(events) == 0 {
		p.flush()
	}
	return ev, true
}

// safeEvent returns ev with every string made safe for the terminal
// (termsafe.Strings), except the answer's text deltas: they are kept raw
// until the answer is written whole (see answer), so that an escape
// sequence split between two deltas is removed whole.
func safeEvent(ev agent.Event) agent.Event {
	if _, ok := ev.(agent.TextDelta); ok {
		return ev
	}
	return termsafe.Strings(ev)
}

// deny answers an approval request with a denial without ever blocking.
func deny(r agent.ApprovalRequest) {
	if r.Reply == nil {
		return
	}
	select {
	case r.Reply <- agent.Approval{Allow: false, Reason: HeadlessDenial}:
	default:
	}
}

// flush writes out what is buffered, keeping the first error.
func (p *Printer) flush() {
	p.flushOne(p.err)
	p.flushOne(p.out)
}

// flushOne flushes w, keeping the first error.
func (p *Printer) flushOne(w *bufio.Writer) {
	if err := w.Flush(); err != nil && p.werr == nil {
		p.werr = err
	}
}

// json writes ev as one line on stdout.
func (p *Printer) json(ev agent.Event) {
	b, err := MarshalEvent(ev)
	if err != nil {
		b, _ = MarshalEvent(agent.Notice{Text: fmt.Sprintf("printer: could not encode a %s event: %v", ev.Type(), err)})
	}
	p.out.Write(b)
	p.out.WriteByte('\n')
}

// text writes ev for a person; depth is the subagent nesting level.
func (p *Printer) text(t *turn, ev agent.Event, depth int) {
	ind := t.prefix + strings.Repeat("    ", depth)
	if _, ok := ev.(agent.ReasoningDelta); !ok && t.reasoning.Len() > 0 && depth == 0 {
		p.progress(ind+modelMark, p.dim(strings.TrimSpace(t.reasoning.String())))
		t.reasoning.Reset()
	}
	switch e := ev.(type) {
	case agent.TextDelta:
		if depth == 0 {
			t.pending.WriteString(e.Text)
		}
	case agent.ReasoningDelta:
		if p.opts.Verbose && depth == 0 {
			t.reasoning.WriteString(e.Text)
		}
	case agent.AssistantDone:
		if depth > 0 {
			return
		}
		t.pending.Reset()
		t.last = e.Text
		if e.Final {
			p.answer(t, e.Text)
		} else if p.opts.Verbose && strings.TrimSpace(e.Text) != "" {
			p.progress(ind+modelMark, p.dim(strings.TrimSpace(e.Text))) // the model's words, never tick's lines
		}
	case agent.ToolStart:
		if e.Name == agent.TodoTool {
			return // the list itself follows as a TodoUpdate
		}
		t.taskStart(e, depth)
		line := ind + p.dim("→ ") + p.bold(e.Name)
		if s := oneLine(e.Summary, 120); s != "" && e.ArgsCut != nil {
			line += "  " + p.red(s) // "arguments too large: ...": the call is not run
		} else if s != "" {
			line += "  " + s
		}
		p.progress("", line)
	case agent.ToolOutput:
		if p.opts.Verbose {
			p.toolOutput(t, ind, e)
		}
	case agent.ToolEnd:
		delete(t.live, e.ID)
		p.toolEnd(ind, e)
		t.taskEnd(e, depth)
	case agent.TodoUpdate:
		if p.used {
			p.err.WriteByte('\n') // set the list apart from the lines above
		}
		p.progress(ind, strings.TrimRight(e.List.Render(), "\n")+"\n")
	case agent.Subagent:
		outer := t.prefix
		t.prefix = t.taskPrefix(e.ParentID) // tasks running side by side interleave
		p.text(t, e.Event, depth+1)
		t.prefix = outer
	case agent.Usage:
		p.usageLine(ind, e)
	case agent.Retry:
		p.progress(ind, p.yellow(fmt.Sprintf("↻ retry %d/%d in %s: %s", e.Attempt, e.Max, e.Wait.Round(time.Millisecond), oneLine(e.Err, 200))))
	case agent.ApprovalRequest:
		p.progress(ind, p.yellow(fmt.Sprintf("! %s needs approval (%s): denied, rerun with --yolo to allow", e.Tool, oneLine(e.Summary, 80))))
	case agent.SteerDelivered:
		p.progress(ind, p.dim("» "+oneLine(e.Text, 120)))
	case agent.UserMessage: // only in a replay
		p.progress(ind, p.dim("› "+oneLine(e.Text, 120)))
	case agent.Notice:
		p.progress(ind, p.dim("· "+e.Text))
	case agent.VerifyStarted, agent.Verified:
		p.verifyLine(ind, ev)
	case agent.HookFailed:
		p.progress(ind, p.yellow("! "+oneLine(agent.HookFailureText(e), 300)))
	case agent.Compacted:
		p.progress(ind, p.dim(fmt.Sprintf("· context compacted: ~%d → ~%d tokens", e.Before, e.After)))
	case agent.Unfinished, agent.PlanProposed, agent.Paused, agent.PlanEditDelivered:
		if depth == 0 {
			p.planText(ind, ev)
		}
	case agent.TurnEnd:
		if !t.final {
			switch {
			case t.pending.Len() > 0:
				p.answer(t, t.pending.String())
			case e.Reason == agent.ReasonDone && t.last != "":
				p.answer(t, t.last)
			}
		}
		p.turnUsage(e) // verbose: the turn's total, after the answer
	}
}

// toolEnd writes the result line of a tool call.
func (p *Printer) toolEnd(ind string, e agent.ToolEnd) {
	secs := fmt.Sprintf("%.1fs", e.Duration.Seconds())
	if e.ExitCode != nil && *e.ExitCode != 0 {
		line := "  " + p.red("✗") + " " + secs + "  " + p.red(fmt.Sprintf("exit %d", *e.ExitCode))
		if e.Blocked {
			line += "  " + p.yellow("blocked by the sandbox")
		}
		p.progress(ind, line)
		if p.opts.Verbose {
			p.progress(ind+"    ", p.dim(head(e.Output, 5)))
		}
		return
	}
	if e.IsError {
		if e.Name == agent.TodoTool {
			p.progress("", ind+p.dim("→ ")+p.bold(agent.TodoTool))
		}
		msg := oneLine(e.Output, 160)
		if !strings.HasPrefix(msg, "Error") {
			msg = "Error: " + msg
		}
		p.progress(ind, "  "+p.red("✗")+" "+secs+"  "+msg)
		return
	}
	if e.Name == agent.TodoTool {
		return
	}
	line := "  " + p.green("✓") + " " + secs
	if e.Name == "bash" {
		if st := lastLine(e.Output); (strings.HasPrefix(st, "exit status ") && st != "exit status 0") || strings.HasPrefix(st, "killed by signal") {
			line += "  " + p.yellow(st)
		}
	}
	p.progress(ind, line)
	if p.opts.Verbose {
		p.progress(ind+"    ", p.dim(head(e.Output, 5)))
	}
}

// toolOutput writes the complete lines a running call printed since its
// last ToolOutput, dimmed under its tool line (verbose). Output that never
// reached a tail (a flood between two events) is said to be skipped.
func (p *Printer) toolOutput(t *turn, ind string, e agent.ToolOutput) {
	if t.live == nil {
		t.live = map[string]*liveTool{}
	}
	lt := t.live[e.ID]
	if lt == nil {
		lt = &liveTool{}
		t.live[e.ID] = lt
	}
	n := e.Total - lt.seen
	if n <= 0 {
		return
	}
	lt.seen = e.Total
	text := e.Tail
	if n < int64(len(text)) {
		text = text[len(text)-int(n):]
	} else if skipped := n - int64(len(text)); skipped > 0 {
		lt.partial = ""
		p.progress(ind+"    ", p.dim(fmt.Sprintf("… %d bytes of output skipped", skipped)))
	}
	text = lt.partial + text
	i := strings.LastIndexByte(text, '\n')
	if i < 0 {
		lt.partial = text[max(len(text)-agent.OutputTailMax, 0):]
		return
	}
	lt.partial = text[i+1:]
	for _, l := range strings.Split(text[:i], "\n") {
		p.progress(ind+"    ", p.dim("│ "+strings.TrimRight(l, "\r")))
	}
}

// answer writes the final answer on stdout, once per turn.
func (p *Printer) answer(t *turn, s string) {
	t.final = true
	s = termsafe.Text(s)
	if s == "" || p.format() == FormatJSON {
		return
	}
	p.flushOne(p.err) // keep the order when both go to one terminal
	p.out.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		p.out.WriteByte('\n')
	}
}

// progress writes s on stderr with every line prefixed by ind.
func (p *Printer) progress(ind, s string) {
	if s == "" {
		return
	}
	p.used = true
	if p.out.Buffered() > 0 {
		p.flushOne(p.out) // keep the order when both go to one terminal
	}
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if line == "" {
			p.err.WriteByte('\n')
			continue
		}
		p.err.WriteString(ind)
		p.err.WriteString(line)
		p.err.WriteByte('\n')
	}
	if strings.HasSuffix(s, "\n") {
		p.err.WriteByte('\n')
	}
}

// ANSI styling, applied only with Options.Color.
func (p *Printer) style(code, s string) string {
	if !p.opts.Color || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p *Printer) dim(s string) string    { return p.style("2", s) }
func (p *Printer) bold(s string) string   { return p.style("1", s) }
func (p *Printer) red(s string) string    { return p.style("31", s) }
func (p *Printer) green(s string) string  { return p.style("32", s) }
func (p *Printer) yellow(s string) string { return p.style("33", s) }

// oneLine returns the first non-empty line of s, made safe, cut to max
// runes with "…" and followed by " …" when more lines follow.
func oneLine(s string, max int) string {
	s = strings.TrimSpace(termsafe.Text(s))
	more := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, more = strings.TrimSpace(s[:i]), true
	}
	if utf8.RuneCountInString(s) > max {
		r := []rune(s)
		return string(r[:max-1]) + "…"
	}
	if more {
		s += " …"
	}
	return s
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n ")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// head returns the first n lines of s, saying how many were left out.
func head(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… (%d more lines)", len(lines)-n)
}
