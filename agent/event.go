package agent

import (
	"fmt"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Event is one thing that happened during a turn. Run delivers events on its
// channel in the order they happened; the concrete types below are the whole
// set. Type returns a stable lower-case name used by the JSON printer.
//
// Delivery rules:
//   - The channel is closed right after exactly one TurnEnd, which is always
//     the last event of a turn, whatever ends it.
//   - Readers must drain the channel until it closes: the loop blocks when
//     the channel's buffer is full (it never drops events).
//   - ToolStart and ToolEnd come in pairs with the same ID; every ToolStart is
//     followed by its ToolEnd before the next model call, even on interrupt.
//   - Events of a subagent arrive wrapped in Subagent, between the ToolStart
//     and ToolEnd of the parent's task call.
//   - An ApprovalRequest blocks its tool call until a reply is sent on Reply
//     or the turn is cancelled. Reply is buffered: sending never blocks.
//     Approval requests of a subagent are NOT wrapped in Subagent, so that a
//     front-end answers one shape of request; their ID is the child's call.
type Event interface {
	Type() string
}

// TextDelta is a piece of the assistant's answer as it streams.
type TextDelta struct {
	Text string `json:"text"`
}

// ReasoningDelta is a piece of a reasoning model's thinking. It is not part
// of the answer.
type ReasoningDelta struct {
	Text string `json:"text"`
	// Rethought: the answer text streamed so far in this response was the
	// model's thoughts (its chat template opened a <think> tag); it is
	// withdrawn from the answer, and Text repeats it as thinking.
	Rethought bool `json:"rethought,omitempty"`
}

// AssistantDone marks the end of one model response: Text is the whole
// answer text of that round (possibly empty when it only called tools), and
// Final is true when no tool calls follow, so Text is the turn's answer.
type AssistantDone struct {
	Text  string `json:"text"`
	Final bool   `json:"final"`
}

// ToolStart announces a tool call about to run. Args is the raw argument
// JSON the model sent (possibly malformed); Summary is its key argument for
// one-line display (the command, the path, the task description). ArgsCut
// is set when the model sent more arguments than one call may have: Args
// is then "{}", Summary says the arguments were too large, and the call is
// not run (its ToolEnd is an error saying so).
type ToolStart struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Args    string   `json:"args"`
	Summary string   `json:"summary"`
	ArgsCut *ArgsCut `json:"args_cut,omitempty"`
	// Item is, for a task call, the id of the plan item it names ("" for
	// none); the task's own events arrive in Subagent under this call's ID.
	Item string `json:"item,omitempty"`
}

// ToolEnd reports a finished tool call: its result as the model sees it and
// whether it failed (the output then starts with "Error:", or a command
// exited with a nonzero status). ExitCode is a bash command's exit status
// (nil for other tools, or when it did not run). Refused is set when the
// call was not run because it needed an approval nobody could give
// (headless without --yolo); a deny rule or a hook's block is the user's
// policy and does not set it. GitWrite is set with Refused when the call
// wrote into .git: nothing allows that without a person approving the
// very write (not --yolo, not a rule). Blocked is set when the sandbox
// blocked the command (the result says so). Diff is, for an edit_file or
// write_file call that changed a file, the change as a unified diff (a
// new file's against /dev/null; at most tools.MaxShownDiff bytes, the
// key masked), for the front-ends to draw: it is not part of what the
// model sees.
type ToolEnd struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Output   string        `json:"output"`
	IsError  bool          `json:"is_error"`
	Duration time.Duration `json:"duration_ns"`
	ExitCode *int          `json:"exit_code,omitempty"`
	Refused  bool          `json:"refused,omitempty"`
	GitWrite bool          `json:"git_write,omitempty"`
	Blocked  bool          `json:"sandbox_blocked,omitempty"`
	Diff     string        `json:"diff,omitempty"`
}

// TodoUpdate carries the whole todo list after an accepted todo call, or
// after a session restore. The list is the receiver's own copy. Rev is the
// list's revision, counted up on every change (todo calls and the user's
// edits); a front-end that applied a newer revision ignores older ones.
//
// Waiting, when set, is the item that waits at a gate while the turn is
// paused (see Paused): a front-end shows it without a spinner or timer.
type TodoUpdate struct {
	List    todo.List `json:"list"`
	Rev     int       `json:"rev,omitempty"`
	Waiting string    `json:"waiting,omitempty"`
}

// Subagent wraps an event of a child loop started by the task tool whose
// call has the id ParentID.
type Subagent struct {
	ParentID string `json:"parent_id"`
	Event    Event  `json:"event"`
}

// Usage reports token use of one model call. Estimated is true when the
// server reported nothing and the figures are tick's own estimate.
//
// CostFrom says where the call's cost came from (the server, the config's
// prices, tick's list prices, a local server's nothing; empty: the cost
// is not known). Window and CompactAt
// are the context window and the prompt size at which the conversation is
// compacted, for a call of the parent loop (0 in a subagent's).
type Usage struct {
	provider.Usage
	Estimated bool `json:"estimated"`
	// CostUSD is the call's cost where it is known (CostFrom is not
	// empty); 0 otherwise.
	CostUSD   float64  `json:"cost_usd,omitempty"`
	CostFrom  CostFrom `json:"cost_from,omitempty"`
	Window    int      `json:"window,omitempty"`
	CompactAt int      `json:"compact_at,omitempty"`
	// Duration is how long the call took, retries included (0 in a
	// replay or a compaction's report).
	Duration time.Duration `json:"duration_ns,omitempty"`
}

// Retry reports that a model call failed and is being retried.
type Retry struct {
	Attempt int           `json:"attempt"`
	Max     int           `json:"max"`
	Wait    time.Duration `json:"wait_ns"`
	Err     string        `json:"error"`
}

// ApprovalRequest asks the user to allow a tool call that changes
// something. Summary is one line (the command or the path); Detail is what
// to show in full (the command, or a unified diff of the change).
type ApprovalRequest struct {
	ID      string `json:"id"`
	Tool    string `json:"tool"`
	Summary string `json:"summary"`
	Detail  string `json:"detail"`
	// Scope says what "allow for the session" covers, for the dialog to
	// show (e.g. "go test …" for a bash call); empty means the whole tool.
	Scope string `json:"scope,omitempty"`
	// Once means only this very call can be allowed (a write into .git):
	// the dialog offers no "for the session", and Always counts as Allow.
	Once bool `json:"once,omitempty"`
	// Rerun means the command already ran in the sandbox, which blocked
	// it; allowing runs it again without the sandbox (Always: this same
	// command, for the session).
	Rerun bool `json:"rerun,omitempty"`
	// Question, when set, is the dialog's question instead of "Allow
	// TOOL?" (e.g. whether to keep the git metadata a command created);
	// allowing answers yes.
	Question string `json:"question,omitempty"`
	// Task is the id of the task call whose subagent asks ("" for the
	// parent), so that a front-end names the task and its item.
	Task string `json:"task,omitempty"`
	// TaskName is that task's description, so that the dialog names the
	// task even when no plan item shows it.
	TaskName string          `json:"task_name,omitempty"`
	Reply    chan<- Approval `json:"-"`
}

// Approval is the user's answer to an ApprovalRequest. Always allows every
// later call of the same tool in this session; Reason, on a denial, is
// passed to the model.
type Approval struct {
	Allow  bool
	Always bool
	Reason string
}

// SteerDelivered reports that a message given to Steer was added to the
// conversation, just before the next model call. ID is what Steer
// returned for it.
type SteerDelivered struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
}

// Notice is something the user should know that is not part of the
// conversation: a reminder sent to the model, a round cap reached, a
// repaired session.
type Notice struct {
	Text string `json:"text"`
	// KeptCopy, when set, is a task's copy of the workspace kept with
	// changes that were not applied (the text says why).
	KeptCopy string `json:"kept_copy,omitempty"`
	// Transient marks a passing state ("finishing the undo point…"), true
	// for a moment only: the TUI shows it as a toast that fades, not as a
	// line of the chat; -p prints it like any notice.
	Transient bool `json:"transient,omitempty"`
	// KeptTask, when set, numbers a task kept because its changes
	// conflicted with the workspace: Agent.TaskPatch and Agent.ApplyTask
	// take it (/tasks apply N).
	KeptTask int `json:"kept_task,omitempty"`
}

// Compacted reports that older history was replaced by a summary before a
// model call. Before and After are token estimates of the request. In a
// replay, Rewound is set when the cut was a rewind of the conversation,
// not a summary: it names the point gone back to (see MarkRewinds).
type Compacted struct {
	Before  int    `json:"before"`
	After   int    `json:"after"`
	Rewound string `json:"rewound,omitempty"`
}

// Reason says why a turn ended.
type Reason string

// The reasons a turn ends.
const (
	ReasonDone        Reason = "done"
	ReasonInterrupted Reason = "interrupted"
	ReasonError       Reason = "error"
)

// TurnEnd is the last event of every turn. Err is set when Reason is
// ReasonError, and Kind then classifies it (see KindOf). Undelivered holds
// Steer messages that never reached the model, in order, so the front-end
// can give them back to the user.
type TurnEnd struct {
	Reason      Reason    `json:"reason"`
	Err         error     `json:"-"`
	Error       string    `json:"error,omitempty"`
	Kind        ErrorKind `json:"kind,omitempty"`
	Undelivered []string  `json:"undelivered,omitempty"`
	// Usage sums the model calls of the turn, its subagents' included;
	// nil when it made none.
	Usage *UsageTotal `json:"usage,omitempty"`
}

// Type implementations.
func (TextDelta) Type() string       { return "text" }
func (ReasoningDelta) Type() string  { return "reasoning" }
func (AssistantDone) Type() string   { return "assistant_done" }
func (ToolStart) Type() string       { return "tool_start" }
func (ToolEnd) Type() string         { return "tool_end" }
func (TodoUpdate) Type() string      { return "todo" }
func (Subagent) Type() string        { return "subagent" }
func (Usage) Type() string           { return "usage" }
func (Retry) Type() string           { return "retry" }
func (ApprovalRequest) Type() string { return "approval_request" }
func (SteerDelivered) Type() string  { return "steer_delivered" }
func (Notice) Type() string          { return "notice" }
func (Compacted) Type() string       { return "compacted" }
func (TurnEnd) Type() string         { return "turn_end" }

// Events of the plan: earned completion, plan mode's proposal, the user's
// edits and gates. Delivery rules, besides those of Event:
//   - Unfinished and PlanProposed come only from the parent loop, at most
//     one per turn, right before TurnEnd of a turn that ended with
//     ReasonDone.
//   - Paused comes before the loop waits for Continue (or a steer, or an
//     interrupt); the next event says how it went on.
//   - PlanEditDelivered comes just before the model call that carries the
//     user's plan edits.

// Unfinished says that the model ended its turn while items were still
// open, after being reminded of them once (or with the reminder turned
// off). Items are the open items, in order.
type Unfinished struct {
	Items []todo.Item `json:"items"`
}

// PlanProposed is the plan a plan-mode turn ended with, for the user to
// approve (Agent.ApprovePlan), edit, or revise with another prompt.
// Changes is how it differs from the previous proposal of this
// conversation (nil for the first one). Rev is the list's revision (see
// TodoUpdate).
type PlanProposed struct {
	List    todo.List     `json:"list"`
	Changes []todo.Change `json:"changes,omitempty"`
	Rev     int           `json:"rev"`
}

// Paused says that the turn stopped before its next model call because
// the item After, which the user marked "stop after", was completed. It
// goes on with Agent.Continue or a steer message; an interrupt ends it.
//
// Next is the item that waits ("" when none is left); the TodoUpdate sent
// just before Paused names it in Waiting, and one without Waiting follows
// when the turn goes on. A gate also holds when the model moves on without
// completing After: a change under a later item pauses there.
type Paused struct {
	After string `json:"after"`
	Next  string `json:"next,omitempty"`
	Text  string `json:"text"`
}

// PlanEditDelivered says that the user's plan edits (Agent.EditPlan)
// reached the conversation as a note to the model, just before a model
// call. Text is the note.
type PlanEditDelivered struct {
	Text string `json:"text"`
}

func (Unfinished) Type() string        { return "unfinished" }
func (PlanProposed) Type() string      { return "plan_proposed" }
func (Paused) Type() string            { return "paused" }
func (PlanEditDelivered) Type() string { return "plan_edit_delivered" }

// HookFailed reports a hook command that failed without blocking anything:
// it exited with a status other than 0 and 2, timed out or could not
// start; the call or prompt it ran for proceeds. It is sent when the hook
// ends, in the turn's order of events: a tool hook's failure between the
// call's ToolStart and ToolEnd, a user_prompt_submit hook's first in the
// turn, a stop hook's just before TurnEnd.
type HookFailed struct {
	Event   string `json:"event"`   // pre_tool_use, post_tool_use, user_prompt_submit or stop
	Command string `json:"command"` // the hook's command line
	Error   string `json:"error"`   // what went wrong, with the end of its stderr
}

// Type returns "hook_failed".
func (HookFailed) Type() string { return "hook_failed" }

// HookFailureText is the one-line message for a HookFailed, for the
// front-ends: "hook failed (EVENT: COMMAND): ERROR".
func HookFailureText(e HookFailed) string {
	return fmt.Sprintf("hook failed (%s: %s): %s", e.Event, e.Command, e.Error)
}

// UserMessage is a message the user wrote: a prompt or a steering message.
// Only Replay produces it, for a saved history; a live turn does not (the
// front-end shows the prompt it sent itself, and SteerDelivered says when
// a steering message joined the conversation).
type UserMessage struct {
	Text string `json:"text"`
}

// Type implements Event.
func (UserMessage) Type() string { return "user" }

// StreamProgress reports that a model call is receiving a tool call's
// arguments, which have no delta event of their own: it is sent at most
// once per streamProgressEvery while they stream, between the call's other
// events. Front-ends use it to tell a server that is busy sending from one
// that went quiet; it carries nothing to show.
type StreamProgress struct{}

// Type returns "stream_progress".
func (StreamProgress) Type() string { return "stream_progress" }

// streamProgressEvery is the least time between two StreamProgress events.
const streamProgressEvery = time.Second
