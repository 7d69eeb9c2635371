package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
)

// interruptedResult is what the model sees for a call cut short by the
// user or never run (the one wording, shared with compaction and session
// repair).
const interruptedResult = provider.Interrupted

// dispatch runs the calls of one assistant message and appends one tool
// message per call, in the calls' order. The calls run in order, except
// that the task calls of a parent's answer run side by side (see
// taskGroup), all started where the first of them stands. When ctx is
// cancelled, the running calls end and every call not yet run is answered
// as interrupted, so the history stays valid. It reports whether a todo
// call was among them.
func (l *loop) dispatch(ctx context.Context, calls []provider.ToolCall) (usedTodo bool) {
	var imgs imageBatch
	defer func() { l.attachImages(imgs.take()) }() // after every tool message
	ctx = tools.WithImages(ctx, imgs.add)
	group := l.taskGroup(calls)
	var done map[int]callResult // the group's results, by index in calls
	for i, c := range calls {
		if c.Name == TodoTool {
			usedTodo = true
		}
		if r, ok := done[i]; ok {
			l.add(provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Content: r.out})
			continue
		}
		if ctx.Err() != nil {
			l.add(provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Content: stoppedResult(ctx)})
			continue
		}
		if len(group) > 0 && i == group[0] {
			done = l.runGroup(ctx, calls, group)
			l.add(provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Content: done[i].out})
			continue
		}
		l.emit(toolStart(c))
		start := time.Now()
		r := l.execute(ctx, c)
		l.emit(r.end(c, start))
		l.add(provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Content: r.out})
	}
	return usedTodo
}

// callResult is what one tool call gave the model: its result, whether
// it failed, and a command's exit status (nil for other tools); and what
// it gave the front-ends: a file change's diff and how it went (outcome).
type callResult struct {
	out     string
	isErr   bool
	code    *int
	diff    string
	outcome callOutcome
}

// end is the ToolEnd of call c, started at start, that gave r; the time
// it waited for the user is not counted in its duration.
func (r callResult) end(c provider.ToolCall, start time.Time) ToolEnd {
	o := r.outcome
	return ToolEnd{ID: c.ID, Name: c.Name, Output: r.out, IsError: r.isErr, Duration: time.Since(start) - o.wait,
		ExitCode: r.code, Refused: o.refused, GitWrite: o.gitWrite, Blocked: o.blocked, Diff: r.diff}
}

// callOutcome is how one call went beyond its result, set by the steps
// that decide it (approve, ask, afterSandbox) through the call's context
// (outcomeOf), so that calls side by side each keep their own.
type callOutcome struct {
	wait     time.Duration // time the call waited for the user
	refused  bool          // it was refused (not run): nobody could approve it
	gitWrite bool          // ... and it was a write into .git, which nothing allows unasked
	blocked  bool          // the sandbox blocked it
}

type outcomeKey struct{}

// outcomeOf returns the outcome of the call ctx runs, or a throwaway one
// outside a call.
func outcomeOf(ctx context.Context) *callOutcome {
	if o, ok := ctx.Value(outcomeKey{}).(*callOutcome); ok {
		return o
	}
	return &callOutcome{}
}

// exitStatus is the last exit status a call's process reported
// (tools.WithExitStatus), nil when none ran to an end.
type exitStatus struct {
	mu   sync.Mutex
	code *int
}

func (s *exitStatus) set(code int) {
	s.mu.Lock()
	s.code = &code
	s.mu.Unlock()
}

func (s *exitStatus) get() *int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.code
}

// execute runs one call with its live output and its post-tool hook,
// marks a call that ctx cut short as failed, and a command that exited
// nonzero too.
func (l *loop) execute(ctx context.Context, c provider.ToolCall) callResult {
	live := newLiveOutput(c.ID, l.a.redactEvents(l.emit))
	var st exitStatus
	var o callOutcome
	ctx = context.WithValue(ctx, outcomeKey{}, &o)
	var diffs []string // a call reports at most one; more are joined
	var mu sync.Mutex
	ctx = tools.WithDiff(ctx, func(d string) { mu.Lock(); diffs = append(diffs, d); mu.Unlock() })
	out, isErr := l.call(tools.WithExitStatus(tools.WithProgress(withCallID(ctx, c.ID), live), st.set), c)
	live.stop()           // no ToolOutput after ToolEnd
	out = l.a.redact(out) // before the model, the front-end and the session see it
	if ctx.Err() != nil && !isErr {
		// The tool stopped early and said so in its output; flag it
		// as an error so the model does not trust a partial result.
		isErr = true
		if stop := stoppedResult(ctx); !strings.Contains(out, stop) {
			out += "\n" + stop
		}
	}
	code := st.get() // from the process, never read back out of its text
	isErr = isErr || failedCommand(code)
	l.postToolHook(ctx, c, out, isErr)
	mu.Lock()
	diff := l.a.redact(tools.CutDiff(strings.Join(diffs, ""), tools.MaxShownDiff)) // it goes to the events
	mu.Unlock()
	return callResult{out: out, isErr: isErr, code: code, diff: diff, outcome: o}
}

// call runs one tool call and returns the result text for the model. A
// call that can change files happens under an item (see underItem): it
// may be refused, start an item (said in a note before its result) or
// pause at a gate first.
func (l *loop) call(ctx context.Context, c provider.ToolCall) (string, bool) {
	if !l.changesFiles(c.Name) || l.tool(c.Name) == nil || c.Name == TaskTool {
		return l.runCall(ctx, c) // a task's gate is its item's (taskGate)
	}
	note, refusal, ok := l.underItem(ctx)
	if !ok {
		return refusal, true
	}
	out, isErr := l.runCall(ctx, c)
	if note != "" {
		out = note + "\n" + out
	}
	return out, isErr
}

// runCall runs one tool call and returns the result text for the model.
// Failures of every kind come back as "Error: ..." text, never a panic. A
// call whose arguments the provider cut (ArgsCut) is not run: its error
// gives the sizes and says how to split the work.
func (l *loop) runCall(ctx context.Context, c provider.ToolCall) (out string, isErr bool) {
	defer func() {
		if r := recover(); r != nil {
			out, isErr = fmt.Sprintf("Error: tool %s failed unexpectedly: %v", c.Name, r), true
		}
	}()
	if c.ArgsCut != nil && c.ArgsCut.Calls > 0 {
		return cutResult(c.Name, *c.ArgsCut), true // the calls past the cap, whatever their tools
	}
	t := l.tool(c.Name)
	if t == nil {
		return fmt.Sprintf("Error: unknown tool %q; the available tools are: %s", c.Name, strings.Join(l.toolNames(), ", ")), true
	}
	if c.ArgsCut != nil {
		return cutResult(c.Name, *c.ArgsCut), true // "{}" stands for nothing the model meant
	}
	args := json.RawMessage(c.Arguments)
	if strings.TrimSpace(c.Arguments) == "" {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) {
		return fmt.Sprintf("Error: the arguments of %s are not valid JSON (%s); send one JSON object matching the tool's schema", c.Name, snippet(c.Arguments, 200)), true
	}
	if msg, blocked := l.preToolHook(ctx, c, args); blocked {
		return msg, true
	}
	if ap, ok := t.(tools.Approvable); ok {
		if msg, allowed := l.approve(ctx, c, ap, args); !allowed {
			return msg, true
		}
	}
	if l.changesFiles(c.Name) {
		l.awaitTurnPoint(ctx) // the message's undo point comes before its first change
	}
	l.extraCall(ctx, c.Name)
	ctx = l.sandboxMode(ctx, c)
	res, err := t.Run(ctx, args)
	gitNote := l.afterGit(ctx, c)
	if err == nil {
		res = l.afterSandbox(ctx, c, t, args, res)
	}
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		if res != "" {
			res += "\n"
		}
		res, isErr = res+stoppedResult(ctx), true
	default:
		res, isErr = "Error: "+err.Error(), true
	}
	if gitNote != "" {
		res += "\n" + gitNote
	}
	return res, isErr
}

// toolNames lists the offered tools, sorted.
func (l *loop) toolNames() []string {
	names := make([]string, len(l.tools))
	for i, t := range l.tools {
		names[i] = t.Spec().Name
	}
	sort.Strings(names)
	return names
}

// snippet shortens s to at most n bytes for an error message.
func snippet(s string, n int) string {
	if len(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:n], len(s))
}
