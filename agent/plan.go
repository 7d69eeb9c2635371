package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

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
	if a.Mode() == ModePlan {
		l.propose()
		return false
	}
	open := a.Todos().Open()
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
func (l *loop) propose() {
	list, changes, rev, ok := l.a.plan.Propose()
	if !ok {
		return
	}
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
	after := l.a.Todos()
	id := plan.GateHit(before, after)
	if id == "" {
		return true
	}
	return l.pauseAt(ctx, id, plan.NextOpenAfter(after, id), fmt.Sprintf("paused after #%s — enter to continue", id))
}

// Continue lets a turn paused at a gate go on. It does nothing when no turn
// is paused.
func (a *Agent) Continue() { a.plan.Wake() }
