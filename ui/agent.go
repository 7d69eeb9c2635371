package ui

import (
	"context"
	"errors"

	"github.com/tick-agent/tick/agent"
)

// Agent is the one way the TUI talks to the engine; *agent.Agent
// implements it. The contract goes one way each: the TUI sends commands
// through these methods, and everything that changes what it shows comes
// back as agent events, applied by one handler (handleEvent): a turn's
// events on the channel its command returns, and the events a command
// caused at once (the new list of a plan edit or an undo, as a
// TodoUpdate) in the slice it returns. The TUI never reads the agent's
// state besides the cheap questions at the end (Effort, Mode, CanRetry). A nil Agent (no model is
// configured) shows the screen and says so when asked for a turn.
type Agent interface {
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

	// SetMode switches the mode (shift+tab). ApprovePlan approves the
	// proposed plan and returns the prompt that carries it out (sent with
	// Run). EditPlan applies the user's edit and returns the events it
	// caused (the new list as a TodoUpdate); a refused edit returns an
	// error saying why. Continue lets a turn paused at a gate go on.
	SetMode(agent.Mode)
	ApprovePlan() (prompt string, err error)
	EditPlan(agent.PlanEdit) ([]agent.Event, error)
	Continue()

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

	// SetEffort sets the thinking level asked of a reasoning model from
	// the next request on ("off", "low", "medium", "high"; "default"
	// leaves it to the server); a level it does not know is an error
	// naming the valid ones (/think).
	SetEffort(level string) error
	// Effort is the thinking level ("" the server's default), for the
	// status bar.
	Effort() string
	// Mode is the agent's mode, for the status bar; CanRetry reports
	// whether the last turn failed, so Retry would send it again. Both
	// are cheap and never block.
	Mode() agent.Mode
	CanRetry() bool

	// SetVerify sets the verify check's command for the next turns (""
	// turns it off: /verify); Verify is the check in effect.
	SetVerify(command string)
	Verify() agent.VerifyCheck

	// StopTask stops the running subagent of the task call id alone
	// (ctrl+x on its row); it reports whether one was running.
	StopTask(id string) bool
}

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
