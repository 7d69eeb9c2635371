package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
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
			l.add(provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Content: interruptedResult})
			continue
		}
		if len(group) > 0 && i == group[0] {
			done = l.runGroup(ctx, calls, group)
			l.add(provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Content: done[i].out})
			continue
		}
		l.emit(toolStart(c))
		start := time.Now()
		l.approvalWait = 0
		r := l.execute(ctx, c)
		l.emit(ToolEnd{ID: c.ID, Name: c.Name, Output: r.out, IsError: r.isErr, Duration: time.Since(start) - l.approvalWait})
		l.add(provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Content: r.out})
	}
	return usedTodo
}

// callResult is what one tool call gave the model.
type callResult struct {
	out   string
	isErr bool
}

// execute runs one call with its live output and its post-tool hook, and
// marks a call that ctx cut short as failed.
func (l *loop) execute(ctx context.Context, c provider.ToolCall) callResult {
	live := newLiveOutput(c.ID, l.emit)
	out, isErr := l.call(tools.WithProgress(withCallID(ctx, c.ID), live), c)
	live.stop() // no ToolOutput after ToolEnd
	if ctx.Err() != nil && !isErr {
		// The tool stopped early and said so in its output; flag it
		// as an error so the model does not trust a partial result.
		isErr = true
		if !strings.Contains(out, interruptedResult) {
			out += "\n" + interruptedResult
		}
	}
	l.postToolHook(ctx, c, out, isErr)
	return callResult{out: out, isErr: isErr}
}

// call runs one tool call and returns the result text for the model.
// Failures of every kind come back as "Error: ..." text, never a panic. A
// call whose arguments the provider cut (ArgsCut) is not run: its error
// gives the sizes and says how to split the work.
func (l *loop) call(ctx context.Context, c provider.ToolCall) (out string, isErr bool) {
	defer func() {
		if r := recover(); r != nil {
			out, isErr = fmt.Sprintf("Error: tool %s failed unexpectedly: %v", c.Name, r), true
		}
	}()
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
		res, isErr = res+interruptedResult, true
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
