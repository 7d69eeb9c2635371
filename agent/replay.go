package agent

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/mention"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// DurationUnknown is the Duration of a replayed ToolEnd: saved sessions do
// not keep how long a call ran.
const DurationUnknown time.Duration = -1

// Replay turns a saved conversation (without the system prompt) into the
// events a live turn produced for it, so that a front-end shows a resumed
// session through the same code as a live one: UserMessage for what the
// user wrote, AssistantDone for each model response, ToolStart and ToolEnd
// for each call (IsError as the live loop set it, Duration
// DurationUnknown), TodoUpdate after each accepted todo call, and
// Compacted (with zero token figures) before the message at each index of
// compactedAt. The loop's reminders to the model are left out. A call
// without a result (an unrepaired history) ends as interrupted. There is no
// TurnEnd: the events describe finished turns. history is not modified.
func Replay(history []provider.Message, compactedAt ...int) []Event {
	r := replayer{marks: map[int]int{}}
	for _, at := range compactedAt {
		r.marks[at]++
	}
	for i, m := range history {
		for ; r.marks[i] > 0; r.marks[i]-- {
			r.flush()
			r.out = append(r.out, Compacted{})
		}
		r.message(m)
	}
	r.flush()
	for at, n := range r.marks {
		if at >= len(history) {
			for ; n > 0; n-- {
				r.out = append(r.out, Compacted{})
			}
		}
	}
	return r.out
}

// replayer collects Replay's events.
type replayer struct {
	out     []Event
	marks   map[int]int         // compactions before the message at an index
	pending []provider.ToolCall // calls of the last assistant message without a result yet
	rev     int                 // revisions of the todo list so far, as the live loop counts them
}

// message adds the events of one saved message.
func (r *replayer) message(m provider.Message) {
	if m.Role == provider.RoleTool {
		r.result(m.ToolCallID, m.Content)
		return
	}
	r.flush()
	switch m.Role {
	case provider.RoleUser:
		if !IsReminder(m.Content) {
			r.user(m.Content)
		}
	case provider.RoleAssistant:
		r.out = append(r.out, AssistantDone{Text: m.Content, Final: len(m.ToolCalls) == 0})
		r.pending = append([]provider.ToolCall(nil), m.ToolCalls...)
	}
}

// user adds the events of a message the user wrote: the prompt as typed,
// and the Notice the live loop gave of what its @ mentions attached (the
// attached text went to the model, never to the screen).
func (r *replayer) user(content string) {
	prompt, att := mention.Split(content)
	r.out = append(r.out, UserMessage{Text: prompt})
	if len(att) == 0 {
		return
	}
	names := make([]string, len(att))
	for i, at := range att {
		names[i] = at.Path
		switch {
		case at.Image:
			names[i] += " (image)"
		case at.Dir:
			names[i] += " (listing)"
		case at.Cut:
			names[i] += " (cut)"
		}
	}
	r.out = append(r.out, Notice{Text: "attached " + strings.Join(names, ", ")})
}

// result adds the events of the call id answered with out.
func (r *replayer) result(id, out string) {
	for i, c := range r.pending {
		if c.ID != id {
			continue
		}
		r.pending = append(r.pending[:i:i], r.pending[i+1:]...)
		r.call(c, out)
		return
	}
}

// flush ends the calls still without a result as interrupted.
func (r *replayer) flush() {
	for _, c := range r.pending {
		r.call(c, interruptedResult)
	}
	r.pending = nil
}

// call adds ToolStart, TodoUpdate for an accepted todo call, and ToolEnd.
func (r *replayer) call(c provider.ToolCall, out string) {
	code := ExitCodeOf(c.Name, out)
	isErr := IsErrorResult(out) || failedCommand(code) || commandCutShort(c.Name, out)
	r.out = append(r.out, toolStart(c))
	if c.Name == TodoTool && !isErr {
		if l, err := todo.ParseWith([]byte(c.Arguments), acceptedLive); err == nil {
			r.rev++
			r.out = append(r.out, TodoUpdate{List: l, Rev: r.rev})
		}
	}
	r.out = append(r.out, ToolEnd{ID: c.ID, Name: c.Name, Output: out, IsError: isErr, Duration: DurationUnknown, ExitCode: code})
}

// IsErrorResult reports whether a saved tool result is one the live loop
// flagged as an error: an "Error: ..." text, or output cut short by an
// interrupt (see provider.Interrupted).
func IsErrorResult(out string) bool {
	return strings.HasPrefix(out, "Error:") || strings.Contains(out, interruptedResult)
}

// IsReminder reports whether a user message was added by the loop for the
// model (such as the todo nag, "<reminder>...</reminder>") rather than
// written by the user.
func IsReminder(s string) bool { return todo.IsReminder(s) }

// summary is a call's key argument for one-line display. tools.Summary
// finds the goal of a todo call and the description of a task call by its
// generic keys, so the tools package needs no knowledge of them.
func summary(name, args string) string {
	return tools.Summary(name, json.RawMessage(args))
}

// Repair returns history made valid for a strict server (see
// provider.Repair): every tool call answered, unanswered ones as
// interrupted by the user; orphan tool messages dropped. history itself is
// not modified.
func Repair(history []provider.Message) []provider.Message {
	out, _, _ := provider.Repair(history, interruptedResult)
	return out
}
