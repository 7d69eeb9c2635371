package agent

import (
	"context"
	"fmt"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/todo"
)

// Changes always happen under an item. Before a call that can change files
// (changesFiles) runs in a parent turn:
//   - when the model's last todo call of this turn was refused, the call is
//     refused too, quoting why, so that the list is put right first;
//   - when this turn sent the plan (an accepted todo call) but no item is
//     in progress, the next pending item is marked in progress
//     (ItemStarted with Auto and a Notice for the user, a note before the
//     call's result for the model), its undo point made first; a plan
//     left open by an earlier turn does not claim the changes of a later,
//     maybe unrelated, request (see "No stale plan");
//   - when the item the change belongs to comes after an open gate ("stop
//     after #N" with #N not completed), the turn pauses at that gate as if
//     #N had just been completed; Continue lets the change run, a steer
//     message refuses it (the model reads the message first).

// ItemStarted says that tick itself marked an item in progress because a
// change arrived while none was (Auto), before the change ran. A
// TodoUpdate with the new list comes just before it.
type ItemStarted struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	Auto bool   `json:"auto"`
}

// Type names the event.
func (ItemStarted) Type() string { return "item_started" }

// underItem prepares a change (see above). It returns a note to put
// before the call's result, or, with ok false, the refusal that is the
// call's result.
func (l *loop) underItem(ctx context.Context) (note, refusal string, ok bool) {
	if l.child {
		return "", "", true
	}
	if l.rejected != "" {
		return "", fmt.Sprintf("Error: your last todo call was refused (%s). This call did not run: send a valid todo list first (complete, with the user's edits kept), then make the change under its item in progress.", l.rejected), false
	}
	if l.a.Mode() == ModePlan {
		return "", "", true
	}
	list := l.a.Todos()
	cur, ok := list.Current()
	if !ok {
		if !l.planned {
			return "", "", true // a plan of an earlier turn: this change may be unrelated to it
		}
		if cur, ok = l.autoStart(ctx); !ok {
			return "", "", true // no plan, or nothing left in it
		}
		note = fmt.Sprintf("Note: no todo item was in progress, so tick marked #%s %q in_progress for this change. Keep the list up to date: mark the item you work on in_progress before changing files.", cur.ID, cur.Text)
		list = l.a.Todos()
	}
	l.worked = true
	if g := plan.OpenGateBefore(list, cur.ID); g != "" && !l.passed[g] {
		if l.passed == nil {
			l.passed = map[string]bool{}
		}
		l.passed[g] = true
		if !l.pauseAt(ctx, g, cur.ID, fmt.Sprintf("paused: the user asked to stop after #%s, and the model moved on to #%s — enter to continue", g, cur.ID)) {
			return "", stoppedResult(ctx), false
		}
		a := l.a
		a.mu.Lock()
		steered := len(a.steer) > 0
		a.mu.Unlock()
		if steered {
			return "", fmt.Sprintf("Error: the user asked to stop after #%s to review it, and you moved on to #%s. The user has answered with a message, which you get next: this call did not run. Read the message and go on as it says.", g, cur.ID), false
		}
	}
	return note, "", true
}

// autoStart marks the first pending item in progress, making its undo
// point first, and reports it; ok is false when no item is pending.
func (l *loop) autoStart(ctx context.Context) (todo.Item, bool) {
	st, ok := l.a.plan.StartNext()
	if !ok {
		return todo.Item{}, false
	}
	it := st.Item
	l.checkpointStarted(ctx, st.Before, st.List)
	l.saveTodos(TodoUpdate{List: st.List, Rev: st.Rev})
	l.emit(ItemStarted{ID: it.ID, Text: it.Text, Auto: true})
	l.emit(Notice{Text: fmt.Sprintf("started #%s %s: a change came with no item in progress", it.ID, it.Text)})
	return it, true
}

// pauseAt pauses the turn at the gate after until Continue, a steer or an
// interrupt, with the item next shown as waiting (a TodoUpdate with
// Waiting before, one without after). It reports false when the turn was
// interrupted. A steer message already waiting lets it go on at once.
func (l *loop) pauseAt(ctx context.Context, after, next, text string) bool {
	a := l.a
	resume := a.plan.Resume()
	select { // a Continue from before this pause does not count
	case <-resume:
	default:
	}
	a.mu.Lock() // after the drain: a steer from now on wakes the wait below
	steered := len(a.steer) > 0
	a.mu.Unlock()
	if steered {
		return true
	}
	l.emitWaiting(next)
	l.emit(Paused{After: after, Next: next, Text: text})
	defer l.emitWaiting("")
	select {
	case <-ctx.Done():
		return false
	case <-resume:
		return true
	}
}

// emitWaiting sends the list with next marked as waiting at a gate ("":
// nothing waits).
func (l *loop) emitWaiting(next string) {
	list, rev := l.a.plan.Snapshot()
	l.emit(TodoUpdate{List: list, Rev: rev, Waiting: next})
}
