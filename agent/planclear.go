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
	a.undo.Retire() // its items' undo points are no longer its ids'
	return archived
}

// replacesPlanLocked decides whether list, from the model, replaces the
// plan rather than updating it, and if so archives the plan and returns
// it. Only a plan in progress (an item of the model's still open) holds:
// it is replaced only by a list with another goal (both goals set and
// different), and the user's items go aside with it (setAside names
// those still open, for the chat). A finished plan (nothing of the
// model's open) is replaced by any list that does not carry all of its
// items on unchanged, and the user's items still open in it are carried
// into list (under a fresh id when theirs is taken) and stay the user's
// (carried names them). a.mu is held.
func (a *Agent) replacesPlanLocked(list *todo.List) (archived todo.List, replaced bool, carried, setAside []string) {
	old := a.todos
	if old.Empty() {
		return todo.List{}, false, nil, nil
	}
	inProgress := false
	for _, it := range old.Open() {
		if !a.plan.added[it.ID] {
			inProgress = true
		}
	}
	if inProgress && sameGoal(old.Goal, list.Goal) {
		return todo.List{}, false, nil, nil
	}
	if !inProgress && continues(old, *list) {
		return todo.List{}, false, nil, nil
	}
	var keep []todo.Item
	for _, it := range old.Open() {
		if a.plan.added[it.ID] {
			keep = append(keep, it)
		}
	}
	archived = a.archiveLocked()
	if inProgress {
		for _, it := range keep {
			setAside = append(setAside, fmt.Sprintf("#%s %q", it.ID, it.Text))
		}
		return archived, true, nil, setAside
	}
	return archived, true, a.carryUserItemsLocked(list, keep), nil
}

// continues reports whether next keeps every item of prev with its text:
// the model updating the same plan rather than starting another.
func continues(prev, next todo.List) bool {
	for _, it := range prev.Items {
		i := next.Find(it.ID)
		if i < 0 || next.Items[i].Text != it.Text {
			return false
		}
	}
	return true
}

// carryUserItemsLocked puts the user's open items of a replaced plan into
// list, each under its own id unless the model used that id for another
// text, and gives the user authority over them again. It returns a note
// per item carried. a.mu is held.
func (a *Agent) carryUserItemsLocked(list *todo.List, items []todo.Item) []string {
	var notes []string
	for _, it := range items {
		if i := list.Find(it.ID); i >= 0 && list.Items[i].Text == it.Text {
			a.plan.added[it.ID], a.plan.text[it.ID] = true, it.Text
			continue // the model carried it itself
		}
		from := it.ID
		if list.Find(it.ID) >= 0 {
			it.ID = nextID(*list)
		}
		it.Status = todo.Pending
		list.Items = append(list.Items, it)
		a.plan.added[it.ID], a.plan.text[it.ID] = true, it.Text
		if from == it.ID {
			notes = append(notes, fmt.Sprintf("#%s %q", it.ID, it.Text))
		} else {
			notes = append(notes, fmt.Sprintf("#%s %q (was #%s)", it.ID, it.Text, from))
		}
	}
	return notes
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
