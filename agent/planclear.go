package agent

import (
	"fmt"
	"strings"

	"github.com/tick-agent/tick/todo"
)

// maxArchived caps the plans an Agent keeps aside; the oldest go first.
const maxArchived = 10

// A plan is put aside (archived) by the user (ClearPlan, /plan clear) or
// when the model sends a list with a different goal while the plan is
// still open. An archived plan is no longer the plan: its items, the
// user's authority over them and its gates are gone from the agent's
// state; it is kept in the session as a todo line with "archived": true
// before the list that follows it, and in Archived for the front-end.

// ClearPlan puts the plan aside: the list becomes empty, the plan is
// recorded in the session marked archived, and the model is told before
// its next call that it is no longer the plan. It returns the events it
// caused, which a front-end applies as it applies a turn's: a TodoUpdate
// with the now empty list and, when saving failed, a Notice saying so. It
// fails with ErrNoPlan when there is no plan and ErrBusy while a turn
// runs.
func (a *Agent) ClearPlan() ([]Event, error) {
	a.mu.Lock()
	if a.running {
		a.mu.Unlock()
		return nil, ErrBusy
	}
	if a.todos.Empty() {
		a.mu.Unlock()
		return nil, ErrNoPlan
	}
	archived := a.archiveLocked()
	a.todos = todo.List{}
	a.plan.rev++
	a.plan.undone = append(a.plan.undone, "The user put the plan aside (archived): "+planName(archived)+" is no longer the plan. Do not carry it on unless the user asks; start a new list with todo when new work needs one.")
	evs := []Event{TodoUpdate{List: todo.List{}, Rev: a.plan.rev}}
	rec := a.cfg.Recorder
	a.mu.Unlock()
	failed := func(err error) []Event {
		return append(evs, Notice{Text: "could not save the archived plan: " + err.Error()})
	}
	if rec != nil {
		if err := rec.Todo(archived); err != nil {
			return failed(err), nil
		}
		if err := rec.Todo(todo.List{}); err != nil {
			return failed(err), nil
		}
	}
	if err := a.savePlan(); err != nil {
		return failed(err), nil
	}
	return evs, nil
}

// Archived returns copies of the plans put aside in this run, oldest
// first, each marked Archived.
func (a *Agent) Archived() []todo.List {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]todo.List, len(a.plan.archived))
	for i, l := range a.plan.archived {
		out[i] = l.Clone()
	}
	return out
}

// archiveLocked keeps the current list aside, marked archived, and drops
// the user's side of it (authority, gates, proposal); it returns the
// archived copy. a.mu is held.
func (a *Agent) archiveLocked() todo.List {
	archived := a.todos.Clone()
	archived.Archived = true
	a.plan.archived = append(a.plan.archived, archived)
	if n := len(a.plan.archived); n > maxArchived {
		a.plan.archived = append([]todo.List(nil), a.plan.archived[n-maxArchived:]...)
	}
	p := &a.plan
	p.added, p.cancelled, p.text, p.stopAfter = map[string]bool{}, map[string]bool{}, map[string]string{}, map[string]bool{}
	p.proposal = nil
	return archived
}

// replacesPlanLocked reports whether list, from the model, replaces an
// open plan with another goal (both goals set and different); it then
// archives the open plan and returns it. a.mu is held.
func (a *Agent) replacesPlanLocked(list todo.List) (todo.List, bool) {
	old := a.todos
	if len(old.Open()) == 0 || sameGoal(old.Goal, list.Goal) {
		return todo.List{}, false
	}
	return a.archiveLocked(), true
}

// sameGoal reports whether two goals are the same, or either is unset.
func sameGoal(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	a, b = norm(a), norm(b)
	return a == "" || b == "" || a == b
}

// planName names a plan by its goal, or its item count.
func planName(l todo.List) string {
	if l.Goal != "" {
		return fmt.Sprintf("the plan %q", l.Goal)
	}
	return fmt.Sprintf("the plan of %d items", len(l.Items))
}
