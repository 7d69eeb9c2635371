package agent

import (
	"fmt"
	"strings"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/todo"
)

// A plan is put aside (archived) by the user (ClearPlan, /plan clear) or
// when the model sends a list with a different goal while the plan is
// still open (see plan.Book.Replace). It is kept in the session as a todo
// line with "archived": true before the list that follows it, and in
// Archived for the front-end; its items' undo points no longer answer for
// their ids (undo.Log.Retire).

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
	archived, rev, err := a.plan.Clear()
	if err == nil {
		a.undo.Retire() // its items' undo points are no longer its ids'
	}
	a.mu.Unlock()
	if err != nil {
		return nil, err
	}
	evs := []Event{TodoUpdate{List: todo.List{}, Rev: rev}}
	failed := func(err error) []Event {
		return append(evs, Notice{Text: "could not save the archived plan: " + err.Error()})
	}
	if rec := a.cfg.Recorder; rec != nil {
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
func (a *Agent) Archived() []todo.List { return a.plan.Archived() }

// replacedText says in the chat that the model's list replaced the
// archived plan, and which of the user's open items were carried into it
// or set aside.
func replacedText(r plan.Replaced) string {
	var s string
	if len(r.Archived.Open()) > len(r.Carried) {
		s = fmt.Sprintf("a plan with a new goal (%q) replaced the open one (%q), which is archived", r.List.Goal, r.Archived.Goal)
	} else {
		s = fmt.Sprintf("a new plan replaced the finished one (%s), which is archived", plan.Name(r.Archived))
	}
	if len(r.Carried) > 0 {
		s += "; your open items were carried into the new plan: " + strings.Join(r.Carried, ", ")
	}
	if len(r.SetAside) > 0 {
		s += "; your open items were set aside with it: " + strings.Join(r.SetAside, ", ") + " (add them again with /plan add)"
	}
	return s
}
