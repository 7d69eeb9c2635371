package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
)

// ToolSource supplies tools that come and go while tick runs: the tools of
// MCP servers (*mcp.Manager implements it through an adapter in ui/app).
// Tools is called at the start of every turn; it may wait for servers
// still starting (bounded by its own timeout, or ctx) and calls note with
// what the user should know (a server left out, one that failed). The tools
// it returns join the built-in ones for that turn.
type ToolSource interface {
	Tools(ctx context.Context, note func(string)) []tools.Tool
}

// Hook events, the names hooks are configured under.
const (
	HookPreToolUse       = "pre_tool_use"
	HookPostToolUse      = "post_tool_use"
	HookUserPromptSubmit = "user_prompt_submit"
	HookStop             = "stop"
)

// HookInput is what the hooks of one event are told, as one JSON object.
type HookInput struct {
	Event     string          `json:"event"`
	SessionID string          `json:"session_id"`
	Workspace string          `json:"workspace"`
	Tool      string          `json:"tool,omitempty"`
	Args      json.RawMessage `json:"arguments,omitempty"`
	Result    *string         `json:"result,omitempty"` // post_tool_use
	Failed    *bool           `json:"failed,omitempty"` // post_tool_use
	Prompt    string          `json:"prompt,omitempty"` // user_prompt_submit
	// Task names the task (its description) whose tool call this is;
	// Workspace is then the task's copy of the workspace when it has one.
	Task string `json:"task,omitempty"`
	// Dir is where the hooks run; "" is the Hooks' own directory (the
	// workspace). For a task's tool call it is the task's copy.
	Dir string `json:"-"`
}

// HookOutcome is what the hooks of one event decided. Block is set when a
// hook asked to block the call or the prompt (exit status 2); Message is
// its reason. Failures are hooks that failed otherwise: they are shown to
// the user and do not stop anything.
type HookOutcome struct {
	Block    bool
	Message  string
	Failures []HookFailed
}

// Hooks runs the user's hook commands for an event; the agent calls it
// before and after each tool call, when a prompt is submitted and when a
// turn ends. Run returns when the hooks are done or timed out.
type Hooks interface {
	Run(ctx context.Context, in HookInput) HookOutcome
}

// ErrPromptBlocked ends a turn whose prompt a user_prompt_submit hook
// blocked; the TurnEnd's error carries the hook's message and its Kind is
// KindPromptBlocked. The prompt is not added to the conversation.
var ErrPromptBlocked = errors.New("prompt blocked by a user_prompt_submit hook")

// KindPromptBlocked is the TurnEnd.Kind of a prompt a hook blocked.
const KindPromptBlocked ErrorKind = "prompt_blocked"

// extraTools returns the tool source's tools for this turn, reporting its
// notes as Notice events.
func (l *loop) extraTools(ctx context.Context) []tools.Tool {
	src := l.a.cfg.ToolSource
	if src == nil {
		return nil
	}
	return src.Tools(ctx, func(s string) { l.emit(Notice{Text: s}) })
}

// runHooks runs the hooks of in.Event, if any, and reports their failures.
func (l *loop) runHooks(ctx context.Context, in HookInput) HookOutcome {
	h := l.a.cfg.Hooks
	if h == nil {
		return HookOutcome{}
	}
	in.Workspace = l.a.cfg.Workspace
	if l.child {
		in.Task = l.taskName
		if l.ws != "" {
			in.Workspace, in.Dir = l.ws, l.ws
		}
	}
	if id := l.a.cfg.SessionID; id != nil {
		in.SessionID = id()
	}
	out := h.Run(ctx, in)
	for _, f := range out.Failures {
		l.emit(f)
	}
	return out
}

// promptHook runs user_prompt_submit hooks; a non-nil error blocks the
// prompt.
func (l *loop) promptHook(ctx context.Context, prompt string) error {
	out := l.runHooks(ctx, HookInput{Event: HookUserPromptSubmit, Prompt: prompt})
	if !out.Block {
		return nil
	}
	if msg := strings.TrimSpace(out.Message); msg != "" {
		return fmt.Errorf("%w: %s", ErrPromptBlocked, msg)
	}
	return ErrPromptBlocked
}

// preToolHook runs pre_tool_use hooks for c. When one blocks the call, it
// returns the tool result for the model and true.
func (l *loop) preToolHook(ctx context.Context, c provider.ToolCall, args json.RawMessage) (string, bool) {
	out := l.runHooks(ctx, HookInput{Event: HookPreToolUse, Tool: c.Name, Args: args})
	if !out.Block {
		return "", false
	}
	msg := strings.TrimSpace(out.Message)
	if msg == "" {
		msg = "no reason given"
	}
	return fmt.Sprintf("Error: a pre_tool_use hook of the user blocked this %s call: %s", c.Name, msg), true
}

// postToolHook runs post_tool_use hooks for c and its result. An
// interrupted call runs none: the user wants the turn to stop now.
func (l *loop) postToolHook(ctx context.Context, c provider.ToolCall, result string, failed bool) {
	if l.a.cfg.Hooks == nil || ctx.Err() != nil {
		return
	}
	args := json.RawMessage(c.Arguments)
	if !json.Valid(args) {
		b, _ := json.Marshal(c.Arguments)
		args = b
	}
	l.runHooks(ctx, HookInput{Event: HookPostToolUse, Tool: c.Name, Args: args, Result: &result, Failed: &failed})
}

// stopHook runs the stop hooks at the end of a turn that was not
// interrupted (an interrupt ends the turn at once).
func (l *loop) stopHook(ctx context.Context, end TurnEnd) {
	if end.Reason == ReasonInterrupted || ctx.Err() != nil {
		return
	}
	l.runHooks(ctx, HookInput{Event: HookStop})
}
