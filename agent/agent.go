// Package agent is tick's agent loop: it keeps the conversation and the todo
// list, sends them to the model, runs the tools the model calls and reports
// everything that happens as typed events on a channel.
//
// One Agent holds one conversation. Run starts a turn in a goroutine and
// returns the channel of its events (see Event for the delivery rules);
// history and the todo list persist across turns. Front-ends (the TUI and
// the -p printer) only read events and call Steer; they never reach into the
// agent's state.
//
// Work can always be taken back: every user message and every item makes
// an undo point (Config.Checkpoints). Undo restores the files of an item;
// RewindPoints, Rewind and ItemDiff list the points, go back to one
// (files, conversation or both) and show what an item changed. File
// changes always happen under an item, and only a turn that worked on the
// plan is reminded of it; see docs/architecture.md, "Undo points, rewind
// and changes under an item".
package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tick-agent/tick/agent/permission"
	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/agent/undo"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Streamer is the model: one streamed call per request. *provider.Client
// implements it.
type Streamer interface {
	Stream(ctx context.Context, req provider.Request, h provider.Handler) (*provider.Response, error)
}

// Recorder persists the conversation as it happens. Each method is called
// synchronously from the loop, before the next model request, so that a
// crash loses nothing complete. An error is reported as a Notice and does
// not stop the turn.
type Recorder interface {
	// Message records one complete message appended to the history.
	Message(m provider.Message) error
	// Todo records the whole todo list after a change.
	Todo(l todo.List) error
	// Compaction records that the history sent to the model was replaced;
	// kept is the new history.
	Compaction(summary string, kept []provider.Message) error
}

// ApprovalMode says how tool calls that change something are approved.
type ApprovalMode int

const (
	// ApproveAsk sends an ApprovalRequest event and waits for the reply.
	ApproveAsk ApprovalMode = iota
	// ApproveAll runs everything without asking (--yolo).
	ApproveAll
	// ApproveNone refuses every such call, telling the model that the user
	// must allow it (headless -p mode without --yolo).
	ApproveNone
)

// Config is what New needs. Model and Workspace are required.
type Config struct {
	Model     Streamer // the model client
	ModelName string   // sent with every request; empty uses the client's default
	Workspace string   // absolute directory the tools work in
	Approval  ApprovalMode
	// Tools overrides the base tools (bash and the file tools); nil means
	// the standard set for Workspace. todo and task are always added.
	Tools []tools.Tool
	// ToolOptions tunes the base tools (timeouts, the commands'
	// environment); ignored when Tools is set.
	ToolOptions tools.Options
	// Headless means nobody can answer an approval request (tick -p):
	// what would ask is refused, even with ApproveAll (a write into .git).
	Headless bool
	// Rules are the config file's allow and deny rules, matched before
	// anything asks.
	Rules permission.Rules
	// SystemPrompt overrides the embedded system prompt.
	SystemPrompt string
	// Instructions are the user's project instructions (AGENTS.md files,
	// see package instructions), appended to the system prompt of the
	// agent and its subagents.
	Instructions string
	// Mentions attaches the files and directories a prompt names with
	// @path to it (see package mention), capped.
	Mentions bool
	// PasteDir is tick's own directory of images pasted from the
	// clipboard: besides the workspace, @ mentions may attach files
	// there, by absolute path. "" allows none.
	PasteDir string
	// MaxRounds caps the model calls of one turn; 0 means 200.
	MaxRounds int
	// Budget caps a turn's cost and time (zero: no cap).
	Budget Budget
	// Recorder, when set, persists every message and todo change.
	Recorder Recorder
	// ContextWindow is the model's context size in tokens; 0 asks
	// ContextWindowFunc, else picks a default from the model name.
	// Compaction starts near it.
	ContextWindow int
	// ContextWindowFunc, when set and ContextWindow is 0, returns the
	// model's context size (0: unknown); it is called once, when the size
	// is first needed (before the first request), and may block until it
	// knows (the app asks a self-hosted server in the background).
	ContextWindowFunc func() int
	// Pricing, when set, prices the calls whose server reports no cost
	// (see Usage); nil leaves their cost unknown.
	Pricing Pricing
	// MaxParallelTasks caps how many task calls of one answer run at the
	// same time (max_parallel_tasks in the configuration); 0 asks
	// ParallelTasksFunc, else DefaultParallelTasks.
	MaxParallelTasks int
	// ParallelTasksFunc, when set and MaxParallelTasks is 0, returns the
	// cap (below 1 counts as 1); it is called once, when an answer first
	// holds several task calls, and may block (the app asks a local
	// server how many requests it serves at once).
	ParallelTasksFunc func() int
	// NoCompletionReminder turns off the reminder sent once per turn when
	// the model ends it while todo items are still open
	// (completion_reminder = false in the configuration).
	NoCompletionReminder bool
	// Checkpoints, when set, records a snapshot of the workspace before
	// each item first goes in progress, for Undo.
	Checkpoints Checkpointer
	// ToolSource, when set, adds tools at the start of every turn (the
	// tools of MCP servers).
	ToolSource ToolSource
	// Hooks, when set, runs the user's hook commands (see Hooks).
	Hooks Hooks
	// SessionID, when set, names the session for hooks (it may return ""
	// before the session's first message is saved).
	SessionID func() string
	// Effort is how hard a reasoning model is asked to think ("" the
	// server's default, "off", "low", "medium", "high"; see
	// provider.ParseEffort): reasoning_effort in the configuration,
	// --reasoning-effort, /think.
	Effort string
	// Date is the day the session started, written into the system
	// prompt; zero means the day New is called. It stays fixed for the
	// agent's life, so the prompt's first bytes do not change at midnight
	// (servers reuse their prompt cache only for an identical prefix); a
	// resumed session sets its own with SetPromptDate.
	Date time.Time
	// Secrets are values masked wherever a tool's output holds them (the
	// API key tick sends), with URL credentials, before the model, the
	// front-end or the session sees the output (values under 8 bytes are
	// not masked).
	Secrets []string
	// Verify is the check a turn must pass to be done (--verify, verify
	// in the configuration; see verify.go); the zero Command is none.
	Verify VerifyCheck
}

// ErrBusy is returned by Run's TurnEnd when a turn is already running.
var ErrBusy = errors.New("a turn is already running")

// Agent is one conversation with the model. Its methods are safe for
// concurrent use; only one turn runs at a time.
type Agent struct {
	cfg   Config
	tools []tools.Tool // base tools, without todo and task

	mu         sync.Mutex
	history    []provider.Message // without the system prompt
	plan       *plan.Book         // the list, the user's side of it and the mode; its own lock, taken after mu (see package plan)
	steer      []steerMsg         // handed to the running turn, not delivered yet
	steerSeq   int                // the id of the last steer message
	running    bool
	approved   []permission.Rule // what the user allowed for the session
	outside    []permission.Rule // commands allowed to run again outside the sandbox
	lastPrompt int               // tokens of the last request and its answer
	folded     int               // messages compactions took out of history, net: the user still sees them (see seenLocked)
	turnUsage  UsageTotal        // the running turn's model calls (TurnEnd.Usage)
	undo       undo.Log          // the undo points; guarded by its own lock (see package undo: a.mu may be held calling it)
	saveMu     sync.Mutex        // serialises savePlan and saveMode; taken before mu
	// The model chosen with SetModel (modelSet), replacing
	// Config.ModelName and Config.ContextWindow; guarded by mu.
	model       string
	modelWindow int
	date        string          // the system prompt's date; guarded by mu
	effort      provider.Effort // the thinking level; guarded by mu
	lateOnce    sync.Once       // asks Config.ContextWindowFunc
	late        int             // its answer
	parOnce     sync.Once       // asks Config.ParallelTasksFunc
	parNoted    sync.Once       // says once that tasks run one at a time
	par         int             // its answer
	tasks       taskSet         // the running subagents, by call id
	modelSet    bool
	streamer    Streamer    // set by SetModelOn; nil: Config.Model
	failed      bool        // the last model turn failed (see Retry)
	verify      VerifyCheck // the check in effect (Config.Verify, SetVerify); guarded by mu
}

// New returns an Agent for cfg, with an empty history and todo list.
func New(cfg Config) (*Agent, error) {
	if cfg.Model == nil {
		return nil, errors.New("agent: Config.Model is required")
	}
	if cfg.Workspace == "" {
		return nil, errors.New("agent: Config.Workspace is required")
	}
	base := cfg.Tools
	if base == nil {
		ws, err := tools.NewWorkspace(cfg.Workspace)
		if err != nil {
			return nil, fmt.Errorf("agent: open workspace %q: %w", cfg.Workspace, err)
		}
		cfg.Workspace = ws.Root()
		base = tools.Base(ws, cfg.ToolOptions)
	}
	if cfg.MaxRounds <= 0 {
		cfg.MaxRounds = 200
	}
	effort, err := provider.ParseEffort(cfg.Effort)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	if cfg.Date.IsZero() {
		cfg.Date = time.Now()
	}
	a := &Agent{cfg: cfg, tools: base, date: cfg.Date.Format(dateLayout), effort: effort, verify: cfg.Verify.withDefaults()}
	a.plan = plan.New()
	return a, nil
}

// Run starts a turn with the user's prompt and returns its events. The
// channel is closed after the turn's TurnEnd. Cancelling ctx interrupts the
// turn: the stream stops, running commands are killed and the history is
// repaired so the next Run sends a valid request. Only one turn runs at a
// time: a second Run while one is running ends at once with ErrBusy.
func (a *Agent) Run(ctx context.Context, prompt string) <-chan Event {
	out, ok := a.begin()
	if ok {
		go a.turn(ctx, prompt, out)
	}
	return out
}

// begin marks a turn as running and returns its event channel. When a turn
// is already running, ok is false and the channel holds only a TurnEnd
// with ErrBusy, and is closed.
func (a *Agent) begin() (out chan Event, ok bool) {
	out = make(chan Event, 64)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.running {
		out <- TurnEnd{Reason: ReasonError, Err: ErrBusy, Error: ErrBusy.Error(), Kind: KindBusy}
		close(out)
		return out, false
	}
	a.running = true
	a.turnUsage = UsageTotal{}
	return out, true
}

// finish ends the running turn: it hands back undelivered steer messages,
// marks the agent idle, sends end and closes out.
func (a *Agent) finish(out chan<- Event, end TurnEnd) {
	a.mu.Lock()
	for _, s := range a.steer {
		end.Undelivered = append(end.Undelivered, s.text)
	}
	a.steer = nil
	a.running = false
	end.Usage = a.takeTurnUsageLocked()
	a.mu.Unlock()
	if end.Err != nil {
		end.Error = end.Err.Error()
		if end.Kind == KindNone {
			end.Kind = KindOf(end.Err)
		}
	}
	out <- end
	close(out)
}

// steerMsg is a message handed to the running turn with Steer.
type steerMsg struct {
	id   int
	text string
}

// Steer hands a message to the running turn: it is added to the
// conversation as a user message just before the next model call (all
// messages waiting then, in order), and a SteerDelivered event with the
// returned id says so. It returns ok false, and keeps nothing, when no turn
// is running; the caller should then start a turn with Run. Ids are
// positive and unique for the Agent's life. A message still undelivered
// when the turn ends comes back in TurnEnd.Undelivered.
func (a *Agent) Steer(text string) (id int, ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.running {
		return 0, false
	}
	a.steerSeq++
	a.steer = append(a.steer, steerMsg{id: a.steerSeq, text: text})
	a.plan.Wake() // a turn paused at a gate goes on with the message
	return a.steerSeq, true
}

// History returns a copy of the conversation so far, without the system
// prompt.
func (a *Agent) History() []provider.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]provider.Message(nil), a.history...)
}

// Todos returns a copy of the current todo list.
func (a *Agent) Todos() todo.List {
	return a.plan.List()
}

// Restore replaces the history and the todo list, for a resumed session.
// The history is repaired first (every tool call answered), so the next
// request is valid. The user's side of the plan starts empty (RestorePlan
// gives it back); the mode is left as it is (RestoreMode). It fails while
// a turn is running.
func (a *Agent) Restore(history []provider.Message, list todo.List) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.running {
		return ErrBusy
	}
	a.history = Repair(append([]provider.Message(nil), history...))
	a.undo.Reset() // points of another conversation do not carry over
	a.folded = 0
	rev := 0
	for _, ev := range Replay(a.history) { // go on counting revisions where the replay ends
		if up, ok := ev.(TodoUpdate); ok {
			rev = up.Rev
		}
	}
	a.plan.Reset(list, rev) // the mode is not the plan's: it stays
	return nil
}
