package agent

import (
	"fmt"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/todo"
)

// What of the plan survives a resumed session, and why, is said in package
// plan (user.go) and docs/architecture.md, "Sessions". The agent saves it
// through the optional recorder interfaces below, and gives it back with
// RestorePlan and RestoreMode after Restore.

// PlanRecorder is what a Recorder may also implement to save the user's
// side of the plan with the session whenever it changes.
type PlanRecorder interface {
	Plan(p todo.UserPlan) error
}

// ModeRecorder is what a Recorder may also implement to save the mode
// (Mode.String) and the mode approving a plan returns to whenever they
// change, so that resuming keeps them.
type ModeRecorder interface {
	Mode(mode, beforePlan string) error
}

// ParseMode returns the mode String names.
func ParseMode(s string) (Mode, error) { return plan.ParseMode(s) }

// savePlan records the user's side of the plan when the Recorder is a
// PlanRecorder. Saves are serialised, each with the state as it is when
// its turn comes, so that the last line written is the latest state.
func (a *Agent) savePlan() error {
	r, ok := a.cfg.Recorder.(PlanRecorder)
	if !ok {
		return nil
	}
	a.saveMu.Lock()
	defer a.saveMu.Unlock()
	if err := r.Plan(a.plan.User()); err != nil {
		return fmt.Errorf("save the plan's state: %w", err)
	}
	return nil
}

// saveMode records the mode when the Recorder is a ModeRecorder.
func (a *Agent) saveMode() error {
	r, ok := a.cfg.Recorder.(ModeRecorder)
	if !ok {
		return nil
	}
	a.saveMu.Lock()
	defer a.saveMu.Unlock()
	m, before := a.plan.Modes()
	if err := r.Mode(m.String(), before.String()); err != nil {
		return fmt.Errorf("save the mode: %w", err)
	}
	return nil
}

// RestorePlan gives a resumed session back the user's side of its plan,
// after Restore: the user's authority over the items still in the list
// (entries for items no longer in it are dropped, so that a list and a
// state saved a moment apart never lock the model out), the notes not yet
// told to the model (told before its next call) and the proposal awaiting
// approval. The gates come from the list. It is not saved again. It fails
// while a turn is running.
func (a *Agent) RestorePlan(up todo.UserPlan) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.running {
		return ErrBusy
	}
	a.plan.Restore(up)
	return nil
}

// RestoreMode gives a resumed session back its mode and the mode approving
// its plan returns to, as saved by a ModeRecorder ("" leaves each as it
// is). It is not saved again. An unknown name changes nothing and returns
// an error.
func (a *Agent) RestoreMode(mode, beforePlan string) error {
	return a.plan.RestoreMode(mode, beforePlan)
}

// Pending returns what a resumed session still waits on, as the events a
// live turn produced for it, for a front-end to show after the replay of
// the history: the plan proposed in plan mode awaiting the user's approval
// (a PlanProposed without change marks), when the agent is in plan mode
// and RestorePlan gave one back. It is empty otherwise.
func (a *Agent) Pending() []Event {
	list, rev, ok := a.plan.Pending()
	if !ok {
		return nil
	}
	return []Event{PlanProposed{List: list, Rev: rev}}
}
