package ui

import (
	"context"
	"errors"

	"github.com/tick-agent/tick/agent"
)

// Agent is the one way the TUI talks to the engine; *agent.Agent
// implements it. It is the sum of three roles: the turns (Turns), the plan
// (Planner) and the history of undo points (History), so a part of the TUI
// that needs one role is given that one. The contract goes one way each:
// the TUI sends commands through these methods, and everything that
// changes what it shows comes back as agent events, applied by one
// handler (handleEvent): a turn's events on the channel its command
// returns, and the events a command caused at once (the new list of a
// plan edit or an undo, as a TodoUpdate) in the slice it returns. The TUI
// never reads the agent's state besides the cheap questions (Effort, Mode,
// CanRetry). Without a model (Config.Agent nil) the root speaks to
// noAgent, whose commands fail with "no model is configured".
type Agent interface {
	Turns
	Planner
	History
}

// Turns is the agent's role of running turns.
type Turns interface {
	// Run starts a turn for prompt and returns its events, closed after
	// TurnEnd. Retry sends the last, failed turn again without a second
	// user message (ctrl+r, /retry), and Compact compacts the conversation
	// as a turn of its own (/compact: Compacted or a Notice, then
	// TurnEnd); their channels follow Run's rules.
	Run(ctx context.Context, prompt string) <-chan agent.Event
	Retry(ctx context.Context) <-chan agent.Event
	Compact(ctx context.Context) <-chan agent.Event
	// Steer hands a message to the running turn and returns the id its
	// SteerDelivered will carry; ok is false when no turn runs.
	Steer(text string) (id int, ok bool)
	// CanRetry reports whether the last turn failed, so Retry would send
	// it again; cheap, never blocks.
	CanRetry() bool
	// StopTask stops the running subagent of the task call id alone
	// (ctrl+x on its row); it reports whether one was running.
	StopTask(id string) bool
	// SetEffort sets the thinking level asked of a reasoning model from
	// the next request on ("off", "low", "medium", "high"; "default"
	// leaves it to the server); a level it does not know is an error
	// naming the valid ones (/think).
	SetEffort(level string) error
	// Effort is the thinking level ("" the server's default), for the
	// status bar.
	Effort() string
	// SetVerify sets the verify check's command for the next turns (""
	// turns it off: /verify); Verify is the check in effect, cheap and
	// never blocking (the status bar and the panel's last line).
	SetVerify(command string)
	Verify() agent.VerifyCheck
}

// Planner is the agent's role of keeping the plan.
type Planner interface {
	// SetMode switches the mode (shift+tab). ApprovePlan approves the
	// proposed plan and returns the prompt that carries it out (sent with
	// Run). EditPlan applies the user's edit and returns the events it
	// caused (the new list as a TodoUpdate); a refused edit returns an
	// error saying why. ClearPlan puts the plan aside (/plan clear) and
	// returns the events it caused. Continue lets a turn paused at a gate
	// go on.
	SetMode(agent.Mode)
	ApprovePlan() (prompt string, err error)
	EditPlan(agent.PlanEdit) ([]agent.Event, error)
	ClearPlan() ([]agent.Event, error)
	Continue()
	// Mode is the agent's mode, for the status bar; cheap, never blocks.
	Mode() agent.Mode
}

// History is the agent's role of undo points: undo and rewind.
type History interface {
	// PreviewUndo says what Undo would restore, changing nothing; Undo
	// restores the workspace to its state before item started and returns
	// the events it caused (the new list as a TodoUpdate). Both are called
	// off the update loop.
	PreviewUndo(ctx context.Context, item string) (agent.UndoPreview, error)
	Undo(ctx context.Context, item string) (agent.UndoPreview, []agent.Event, error)
	// RewindPoints lists the points /rewind can go back to, newest first;
	// Rewind goes back to one (files, conversation or both) and returns
	// what it did with the events it caused; ItemDiff says what an item
	// changed (the plan editor's enter). All three are called off the
	// update loop.
	RewindPoints(ctx context.Context) ([]agent.RewindPoint, error)
	Rewind(ctx context.Context, id string, scope agent.RewindScope) (agent.Rewound, error)
	ItemDiff(ctx context.Context, item string) (agent.ItemChanges, error)
	// SessionDiff says what changed since the session's start (since
	// ""), message N ("N") or item N ("#N"), for /diff; off the update
	// loop.
	SessionDiff(ctx context.Context, since string) (agent.ItemChanges, error)
	// KeptTasks lists the tasks kept because their changes conflicted
	// with the workspace (cheap, never blocks); TaskPatch shows one's
	// patch, ApplyTask applies it over the current files after an undo
	// point (its conflicting hunks marked) and returns the events it
	// caused (/tasks, the kept task's offer). Off the update loop but
	// KeptTasks.
	KeptTasks() []agent.KeptTask
	TaskPatch(n int) (agent.ItemChanges, error)
	ApplyTask(ctx context.Context, n int) ([]agent.Event, error)
}

// noAgent is the agent of an app without a model: it runs no turn (its
// channels are closed at once), its questions answer "nothing" (auto mode,
// no retry, the server's effort) and its commands fail with errNoAgent.
type noAgent struct{}

func closedEvents() <-chan agent.Event {
	ch := make(chan agent.Event)
	close(ch)
	return ch
}

func (noAgent) Run(context.Context, string) <-chan agent.Event { return closedEvents() }
func (noAgent) Retry(context.Context) <-chan agent.Event       { return closedEvents() }
func (noAgent) Compact(context.Context) <-chan agent.Event     { return closedEvents() }
func (noAgent) Steer(string) (int, bool)                       { return 0, false }
func (noAgent) CanRetry() bool                                 { return false }
func (noAgent) StopTask(string) bool                           { return false }
func (noAgent) SetEffort(string) error                         { return errNoAgent }
func (noAgent) Effort() string                                 { return "" }
func (noAgent) SetVerify(string)                               {}
func (noAgent) Verify() agent.VerifyCheck                      { return agent.VerifyCheck{} }
func (noAgent) SetMode(agent.Mode)                             {}
func (noAgent) ApprovePlan() (string, error)                   { return "", errNoAgent }
func (noAgent) EditPlan(agent.PlanEdit) ([]agent.Event, error) { return nil, errNoAgent }
func (noAgent) ClearPlan() ([]agent.Event, error)              { return nil, errNoAgent }
func (noAgent) Continue()                                      {}
func (noAgent) Mode() agent.Mode                               { return agent.ModeAuto }
func (noAgent) PreviewUndo(context.Context, string) (agent.UndoPreview, error) {
	return agent.UndoPreview{}, errNoAgent
}
func (noAgent) Undo(context.Context, string) (agent.UndoPreview, []agent.Event, error) {
	return agent.UndoPreview{}, nil, errNoAgent
}
func (noAgent) RewindPoints(context.Context) ([]agent.RewindPoint, error) { return nil, errNoAgent }
func (noAgent) Rewind(context.Context, string, agent.RewindScope) (agent.Rewound, error) {
	return agent.Rewound{}, errNoAgent
}
func (noAgent) ItemDiff(context.Context, string) (agent.ItemChanges, error) {
	return agent.ItemChanges{}, errNoAgent
}
func (noAgent) SessionDiff(context.Context, string) (agent.ItemChanges, error) {
	return agent.ItemChanges{}, errNoAgent
}

func (noAgent) KeptTasks() []agent.KeptTask { return nil }
func (noAgent) TaskPatch(int) (agent.ItemChanges, error) {
	return agent.ItemChanges{}, errNoAgent
}
func (noAgent) ApplyTask(context.Context, int) ([]agent.Event, error) { return nil, errNoAgent }

// orNoAgent is a, or noAgent when a is nil (no model is configured).
func orNoAgent(a Agent) Agent {
	if a == nil {
		return noAgent{}
	}
	return a
}

// agentless reports whether no model is configured: the commands that
// would start something say so before they change the screen.
func (m *Model) agentless() bool { return m.cfg.Agent == Agent(noAgent{}) }

// errNoAgent is shown for a command that needs the agent when Config has
// none (no model is configured).
var errNoAgent = errors.New("no model is configured")

// applyEvents applies the events a command caused, as a turn's are
// applied.
func (m *Model) applyEvents(evs []agent.Event) {
	for _, ev := range evs {
		m.handleEvent(ev)
	}
}
