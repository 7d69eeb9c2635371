package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// planState is what the agent keeps of the plan besides the list itself:
// its revision, the user's authoritative edits, edits not yet told to the
// model, the last proposal of plan mode and the gate the loop waits on.
// It is guarded by Agent.mu. What of it a session keeps, and why, is in
// planresume.go.
type planState struct {
	rev        int               // bumped on every change of the list
	added      map[string]bool   // items the user added
	cancelled  map[string]bool   // items the user cancelled
	text       map[string]string // items whose text the user wrote
	stopAfter  map[string]bool   // gates: pause after these complete
	edits      []string          // edit notes not yet told to the model
	proposal   *todo.List        // the last plan proposed in plan mode
	beforePlan Mode              // the mode to return to on approval
	resume     chan struct{}     // Continue and Steer wake a paused turn
	undone     []string          // restore notes not yet told to the model
	archived   []todo.List       // plans put aside, oldest first (see planclear.go)
}

// init makes the maps and the resume channel.
func (p *planState) init() {
	if p.added != nil {
		return
	}
	p.added, p.cancelled = map[string]bool{}, map[string]bool{}
	p.text, p.stopAfter = map[string]string{}, map[string]bool{}
	p.resume = make(chan struct{}, 1)
}

// openReminder is the message sent when the model ends its turn with items
// still open.
func openReminder(open []todo.Item) string {
	return "<reminder>" + openSentence(open) + " — finish them, cancel them with a reason, or, if you need the user, say what you need.</reminder>"
}

// openSentence says which items are open: "2 items are still open: #2
// Add docs, #3 Test".
func openSentence(open []todo.Item) string {
	parts := make([]string, len(open))
	for i, it := range open {
		parts[i] = "#" + it.ID + " " + it.Text
	}
	verb := "items are"
	if len(open) == 1 {
		verb = "item is"
	}
	return fmt.Sprintf("%d %s still open: %s", len(open), verb, strings.Join(parts, ", "))
}

// finalAnswer decides what happens when the model answers without tool
// calls. It returns true when the loop should go on: the model is reminded
// once per turn of items still open (not in plan mode, not for a
// subagent, not when Config.NoCompletionReminder is set), and only in a
// turn that worked on the plan (called todo, or changed files under an
// item): a later unrelated request is not pushed back into an open plan,
// and gets no Unfinished either. Then the verify check runs (verifyAgain),
// which may send the model back to work. Otherwise it emits Unfinished or
// PlanProposed as the case may be and returns false.
func (l *loop) finalAnswer(ctx context.Context) bool {
	if l.child {
		return false
	}
	a := l.a
	a.mu.Lock()
	list, mode := a.todos.Clone(), a.mode
	a.mu.Unlock()
	if mode == ModePlan {
		l.propose(list)
		return false
	}
	open := list.Open()
	if len(open) == 0 || !l.worked {
		return l.verifyAgain(ctx) // a turn that did not work on the plan is not pushed back into it
	}
	if !l.reminded && !a.cfg.NoCompletionReminder {
		l.reminded = true
		l.add(provider.Message{Role: provider.RoleUser, Content: openReminder(open)})
		l.emit(Notice{Text: "reminded the model: " + openSentence(open)})
		return true
	}
	if l.verifyAgain(ctx) {
		return true // the list is said when the turn really ends
	}
	l.emit(Unfinished{Items: l.a.Todos().Open()})
	return false
}

// propose emits the plan of a plan-mode turn as a proposal and remembers it
// to mark what the next revision changes.
func (l *loop) propose(list todo.List) {
	if list.Empty() {
		return
	}
	a := l.a
	a.mu.Lock()
	var changes []todo.Change
	if prev := a.plan.proposal; prev != nil {
		changes = todo.Diff(*prev, list)
	}
	c := list.Clone()
	a.plan.proposal = &c
	rev := a.plan.rev
	a.mu.Unlock()
	l.savePlan()
	l.emit(PlanProposed{List: list, Changes: changes, Rev: rev})
}

// savePlan saves the user's side of the plan, telling the user when that
// fails.
func (l *loop) savePlan() {
	if err := l.a.savePlan(); err != nil {
		l.emit(Notice{Text: fmt.Sprintf("could not save the plan: %v", err)})
	}
}

// gate pauses the turn when the todo call of this round completed an item
// the user marked "stop after", until Continue, a steer or an interrupt.
// It reports false when the turn was interrupted.
func (l *loop) gate(ctx context.Context, before todo.List) bool {
	if l.child {
		return true
	}
	a := l.a
	a.mu.Lock()
	after := a.todos.Clone()
	resume := a.plan.resume
	a.mu.Unlock()
	id := gateHit(before, after)
	if id == "" || resume == nil {
		return true
	}
	return l.pauseAt(ctx, id, nextOpenAfter(after, id), fmt.Sprintf("paused after #%s — enter to continue", id))
}

// gateHit returns the id of a stop-after item that is completed in after
// but was not in before, or "".
func gateHit(before, after todo.List) string {
	for _, it := range after.Items {
		if !it.StopAfter || it.Status != todo.Completed {
			continue
		}
		if i := before.Find(it.ID); i < 0 || before.Items[i].Status != todo.Completed {
			return it.ID
		}
	}
	return ""
}

// Continue lets a turn paused at a gate go on. It does nothing when no turn
// is paused.
func (a *Agent) Continue() {
	a.mu.Lock()
	a.plan.init()
	r := a.plan.resume
	a.mu.Unlock()
	select {
	case r <- struct{}{}:
	default:
	}
}
