package agent

import (
	"fmt"
	"strings"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/provider"
)

// PlanOp is one kind of edit the user makes to the plan (plan.Op).
type PlanOp = plan.Op

// The edits of Agent.EditPlan.
const (
	PlanAdd       = plan.OpAdd       // add Text as a pending item after ID ("" = at the end)
	PlanText      = plan.OpText      // change ID's text to Text
	PlanCancel    = plan.OpCancel    // cancel ID with Reason
	PlanDrop      = plan.OpDrop      // delete ID, which must be pending
	PlanMove      = plan.OpMove      // move ID to position To (1-based)
	PlanStopAfter = plan.OpStopAfter // toggle the gate after ID
)

// PlanEdit is one edit of the plan by the user (plan.Edit).
type PlanEdit = plan.Edit

// ErrNoPlan is returned by ApprovePlan and ClearPlan when there is no plan
// to approve or clear.
var ErrNoPlan = plan.ErrNoPlan

// EditPlan applies the user's edit to the todo list at once and returns
// the events it caused, which a front-end applies as it applies a turn's:
// a TodoUpdate with the new list (and its revision, so that a front-end
// can ignore older updates still on their way) and, when saving the list
// failed, a Notice saying so. The edit reaches the model as a note with
// the new list just before its next model call, in the running turn or,
// when idle, the next one (see PlanEditDelivered). The user's edits are
// authoritative: a later todo call that drops an item the user added,
// re-opens one the user cancelled or rewrites a text the user wrote is
// refused. A bad edit (unknown item, empty text, a full list) changes
// nothing, causes no event and returns an error saying why.
func (a *Agent) EditPlan(e PlanEdit) ([]Event, error) {
	list, rev, err := a.plan.Edit(e)
	if err != nil {
		return nil, err
	}
	evs := []Event{TodoUpdate{List: list.Clone(), Rev: rev}}
	if rec := a.cfg.Recorder; rec != nil {
		if err := rec.Todo(list); err != nil {
			evs = append(evs, Notice{Text: "could not save the edited plan: " + err.Error()})
		}
	}
	if err := a.savePlan(); err != nil {
		evs = append(evs, Notice{Text: "could not save the edited plan: " + err.Error()})
	}
	if e.Op == PlanCancel {
		id := itemID(e.ID)
		if n := a.tasks.cancelItem(id, strings.Join(strings.Fields(e.Reason), " ")); n > 0 {
			evs = append(evs, Notice{Text: fmt.Sprintf("stopped the task working on #%s: its changes will not be applied (its copy is kept for review)", id)})
		}
	}
	return evs, nil
}

// deliverPlanEdits adds the user's plan edits and restores not yet told to
// the model as one note with the current list.
func (l *loop) deliverPlanEdits() {
	edits, undone, list := l.a.plan.TakeNotes()
	if len(edits) == 0 && len(undone) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("<reminder>")
	if len(undone) > 0 {
		b.WriteString(strings.Join(undone, "\n"))
		b.WriteString("\n")
	}
	if len(edits) > 0 {
		b.WriteString("The user edited the plan: " + strings.Join(edits, "; ") + ". The user's edits stand: keep them in every todo call.\n")
	}
	b.WriteString("\nThe plan now:\n" + list.Render() + "</reminder>")
	text := b.String()
	l.add(provider.Message{Role: provider.RoleUser, Content: text})
	l.emit(PlanEditDelivered{Text: text})
	l.savePlan()
}

// ApprovePlan approves the plan proposed in plan mode: the mode goes back to
// the one before plan mode, and the returned prompt, sent with Run, asks
// the model to carry the plan out (it includes the plan, and offers the
// tasks' changes plan mode held, by their copies). It returns
// ErrNoPlan when the list is empty and ErrBusy while a turn runs.
func (a *Agent) ApprovePlan() (string, error) {
	a.mu.Lock()
	if a.running {
		a.mu.Unlock()
		return "", ErrBusy
	}
	list, err := a.plan.Approve() // under mu: no turn starts in between
	a.mu.Unlock()
	if err != nil {
		return "", err
	}
	prompt := "I approve this plan. Carry it out now, item by item, keeping the todo list up to date:\n\n" + list
	if held := a.tasks.takeHeld(); len(held) > 0 {
		prompt += "\n\nThese tasks finished while in plan mode and their changes were held, not applied: " + strings.Join(held, "; ") +
			". Where the plan still wants them, apply their changes from the copies (compare first: the workspace may have changed)."
	}
	_ = a.saveMode() // like SetMode's; the approved plan's turn saves messages next
	_ = a.savePlan()
	return prompt, nil
}
