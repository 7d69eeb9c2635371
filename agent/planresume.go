package agent

import (
	"fmt"
	"maps"
	"slices"

	"github.com/tick-agent/tick/todo"
)

// What of the plan survives a resumed session (see also docs/architecture.md,
// "Sessions"):
//
//   - The user's authority (items added, cancelled, worded) is saved with
//     every change (PlanRecorder) and restored (RestorePlan): a todo call
//     that undoes a user's edit is refused after a resume as before it.
//   - The gates (stop_after) are in the saved list itself.
//   - The notes of edits and undos not yet told to the model are saved, and
//     saved again once delivered, so the model hears of them after a resume
//     exactly once (a crash between the two tells it twice, never zero
//     times).
//   - The proposal awaiting approval is saved, so that the next proposal
//     marks its changes; a resumed plan-mode session can approve the plan.
//   - The mode and the mode plan mode returns to are saved (ModeRecorder)
//     and restored (RestoreMode), so that a session left in plan mode does
//     not come back able to change files.
//   - The undo checkpoints are not saved: they describe the workspace as
//     this process left it, and the workspace may have changed since (the
//     user, another tick). Restoring a snapshot taken before the session was
//     left could throw away that later work without the user seeing it in
//     the list of changes of this run; undo starts afresh with the next item.
//   - The revision goes on where the replay of the history ends (Restore).

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
func ParseMode(s string) (Mode, error) {
	for _, m := range []Mode{ModeAuto, ModeAsk, ModePlan} {
		if m.String() == s {
			return m, nil
		}
	}
	return ModeAuto, fmt.Errorf("unknown mode %q (auto, ask or plan)", s)
}

// userPlanLocked returns the savable part of the plan state. a.mu is held.
func (a *Agent) userPlanLocked() todo.UserPlan {
	p := &a.plan
	up := todo.UserPlan{
		Added:     sortedTrue(p.added),
		Cancelled: sortedTrue(p.cancelled),
		Pending:   slices.Clone(p.edits),
		Undone:    slices.Clone(p.undone),
	}
	if len(p.text) > 0 {
		up.Text = maps.Clone(p.text)
	}
	if p.proposal != nil {
		c := p.proposal.Clone()
		up.Proposal = &c
	}
	return up
}

// sortedTrue returns the keys of m whose value is true, sorted.
func sortedTrue(m map[string]bool) []string {
	var out []string
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

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
	a.mu.Lock()
	up := a.userPlanLocked()
	a.mu.Unlock()
	if err := r.Plan(up); err != nil {
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
	a.mu.Lock()
	m, before := a.mode, a.plan.beforePlan
	a.mu.Unlock()
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
	p := &a.plan
	for _, id := range up.Added {
		p.added[id] = true
	}
	for _, id := range up.Cancelled {
		p.cancelled[id] = true
	}
	maps.Copy(p.text, up.Text)
	a.dropGoneLocked()
	for _, it := range a.todos.Items {
		if it.StopAfter {
			p.stopAfter[it.ID] = true
		}
	}
	p.edits = append(p.edits, up.Pending...)
	p.undone = append(p.undone, up.Undone...)
	if up.Proposal != nil {
		c := up.Proposal.Clone()
		p.proposal = &c
	}
	return nil
}

// RestoreMode gives a resumed session back its mode and the mode approving
// its plan returns to, as saved by a ModeRecorder ("" leaves each as it
// is). It is not saved again. An unknown name changes nothing and returns
// an error.
func (a *Agent) RestoreMode(mode, beforePlan string) error {
	var m, before Mode
	var err error
	if mode != "" {
		if m, err = ParseMode(mode); err != nil {
			return fmt.Errorf("restore the mode: %w", err)
		}
	}
	if beforePlan != "" {
		if before, err = ParseMode(beforePlan); err != nil {
			return fmt.Errorf("restore the mode: %w", err)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if mode != "" {
		a.mode = m
	}
	if beforePlan != "" && before != ModePlan {
		a.plan.beforePlan = before
	}
	return nil
}

// Pending returns what a resumed session still waits on, as the events a
// live turn produced for it, for a front-end to show after the replay of
// the history: the plan proposed in plan mode awaiting the user's approval
// (a PlanProposed without change marks), when the agent is in plan mode
// and RestorePlan gave one back. It is empty otherwise.
func (a *Agent) Pending() []Event {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.mode != ModePlan || a.plan.proposal == nil || a.todos.Empty() {
		return nil
	}
	return []Event{PlanProposed{List: a.todos.Clone(), Rev: a.plan.rev}}
}

// prunePlanLocked drops the user's authority over items that are no longer
// in the list as the user gave it (a rewind took the list back to before
// an edit): an id gone from the list, or whose text is no longer the one
// the user wrote, binds the model no more. a.mu is held.
func (a *Agent) prunePlanLocked() {
	p := &a.plan
	for id, want := range p.text {
		if i := a.todos.Find(id); i >= 0 && a.todos.Items[i].Text != want {
			delete(p.text, id)
			delete(p.added, id)
		}
	}
	a.dropGoneLocked()
	if p.proposal != nil && a.todos.Empty() {
		p.proposal = nil
	}
}

// dropGoneLocked drops the user's authority (added, cancelled, worded,
// gates) over ids no longer in the list, so that it never locks the model
// out of an item that is not there. a.mu is held.
func (a *Agent) dropGoneLocked() {
	p := &a.plan
	gone := func(id string) bool { return a.todos.Find(id) < 0 }
	for _, m := range []map[string]bool{p.added, p.cancelled, p.stopAfter} {
		maps.DeleteFunc(m, func(id string, _ bool) bool { return gone(id) })
	}
	maps.DeleteFunc(p.text, func(id, _ string) bool { return gone(id) })
}
