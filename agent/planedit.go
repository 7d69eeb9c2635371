package agent

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// PlanOp is one kind of edit the user makes to the plan.
type PlanOp string

// The edits of Agent.EditPlan.
const (
	PlanAdd       PlanOp = "add"        // add Text as a pending item after ID ("" = at the end)
	PlanText      PlanOp = "edit"       // change ID's text to Text
	PlanCancel    PlanOp = "cancel"     // cancel ID with Reason
	PlanDrop      PlanOp = "drop"       // delete ID, which must be pending
	PlanMove      PlanOp = "move"       // move ID to position To (1-based)
	PlanStopAfter PlanOp = "stop_after" // toggle the gate after ID
)

// PlanEdit is one edit of the plan by the user.
type PlanEdit struct {
	Op     PlanOp
	ID     string
	Text   string
	Reason string
	To     int
}

// ErrNoPlan is returned by EditPlan and ApprovePlan when there is nothing
// to edit or approve.
var ErrNoPlan = errors.New("there is no plan")

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
	a.mu.Lock()
	list, note, err := a.applyEdit(a.todos.Clone(), e)
	if err != nil {
		a.mu.Unlock()
		return nil, fmt.Errorf("edit the plan (%s #%s): %w", e.Op, e.ID, err)
	}
	a.todos = list
	a.plan.rev++
	a.plan.edits = append(a.plan.edits, note)
	evs := []Event{TodoUpdate{List: list.Clone(), Rev: a.plan.rev}}
	rec := a.cfg.Recorder
	a.mu.Unlock()
	if rec != nil {
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

// applyEdit returns l with e applied and a note saying what changed. It
// records the user's authority over the items it touches. a.mu is held.
func (a *Agent) applyEdit(l todo.List, e PlanEdit) (todo.List, string, error) {
	p := &a.plan
	i := l.Find(strings.TrimPrefix(strings.TrimSpace(e.ID), "#"))
	text := strings.Join(strings.Fields(e.Text), " ")
	if e.Op != PlanAdd || e.ID != "" {
		if i < 0 {
			return l, "", fmt.Errorf("no item #%s in the plan", e.ID)
		}
	}
	switch e.Op {
	case PlanAdd:
		if text == "" {
			return l, "", errors.New("the new item needs a text")
		}
		if len(l.Items) >= todo.MaxItems {
			return l, "", fmt.Errorf("the plan already has %d items, the most it may have", todo.MaxItems)
		}
		it := todo.Item{ID: nextID(l), Text: text, Status: todo.Pending}
		at := len(l.Items)
		if i >= 0 {
			at = i + 1
		}
		l.Items = append(l.Items[:at], append([]todo.Item{it}, l.Items[at:]...)...)
		p.added[it.ID], p.text[it.ID] = true, it.Text
		return l, fmt.Sprintf("added #%s %s", it.ID, it.Text), nil
	case PlanText:
		if text == "" {
			return l, "", errors.New("the text may not be empty")
		}
		old := l.Items[i].Text
		l.Items[i].Text, l.Items[i].ActiveForm = text, ""
		p.text[l.Items[i].ID] = text
		return l, fmt.Sprintf("reworded #%s to %q (was %q)", l.Items[i].ID, text, old), nil
	case PlanCancel:
		reason := strings.Join(strings.Fields(e.Reason), " ")
		if reason == "" {
			return l, "", errors.New("say why the item is cancelled")
		}
		it := &l.Items[i]
		if it.Status == todo.Completed || it.Status == todo.Cancelled {
			return l, "", fmt.Errorf("item #%s is already %s", it.ID, it.Status)
		}
		it.Status, it.Note = todo.Cancelled, reason
		p.cancelled[it.ID] = true
		return l, fmt.Sprintf("cancelled #%s: %s", it.ID, reason), nil
	case PlanDrop:
		it := l.Items[i]
		if it.Status != todo.Pending {
			return l, "", fmt.Errorf("item #%s is %s: only pending items can be deleted (cancel it instead)", it.ID, it.Status)
		}
		l.Items = append(l.Items[:i], l.Items[i+1:]...)
		delete(p.added, it.ID)
		delete(p.text, it.ID)
		delete(p.stopAfter, it.ID)
		return l, fmt.Sprintf("removed #%s %s", it.ID, it.Text), nil
	case PlanMove:
		to := min(max(e.To, 1), len(l.Items)) - 1
		it := l.Items[i]
		l.Items = append(l.Items[:i], l.Items[i+1:]...)
		l.Items = append(l.Items[:to], append([]todo.Item{it}, l.Items[to:]...)...)
		return l, fmt.Sprintf("moved #%s to position %d", it.ID, to+1), nil
	case PlanStopAfter:
		it := &l.Items[i]
		it.StopAfter = !it.StopAfter
		p.stopAfter[it.ID] = it.StopAfter
		if it.StopAfter {
			return l, fmt.Sprintf("marked #%s \"stop after\": the user reviews the work when it is completed", it.ID), nil
		}
		return l, fmt.Sprintf("removed the stop after #%s", it.ID), nil
	}
	return l, "", fmt.Errorf("unknown plan edit %q", e.Op)
}

// nextID returns an id for a new item: one more than the largest numeric
// id, unused.
func nextID(l todo.List) string {
	n := 0
	for _, it := range l.Items {
		if v, err := strconv.Atoi(it.ID); err == nil && v > n {
			n = v
		}
	}
	for {
		n++
		id := strconv.Itoa(n)
		if l.Find(id) < 0 {
			return id
		}
	}
}

// checkUserEdits refuses a list from the model that undoes the user's
// edits, and carries the user's gates over into it. a.mu is held.
func (a *Agent) checkUserEdits(l *todo.List) error {
	p := &a.plan
	for id := range p.added {
		if l.Find(id) < 0 {
			return fmt.Errorf("item #%s was added by the user and may not be dropped: keep it in the list (complete it, or cancel it with a note saying why)", id)
		}
	}
	for i := range l.Items {
		it := &l.Items[i]
		if p.cancelled[it.ID] && it.Status != todo.Cancelled {
			return fmt.Errorf("item #%s was cancelled by the user and may not be re-opened: keep it cancelled", it.ID)
		}
		if want, ok := p.text[it.ID]; ok && it.Text != want {
			return fmt.Errorf("the text of item #%s was written by the user and may not be changed: keep it as %q", it.ID, want)
		}
		it.StopAfter = p.stopAfter[it.ID]
	}
	return nil
}

// deliverPlanEdits adds the user's plan edits and restores not yet told to
// the model as one note with the current list.
func (l *loop) deliverPlanEdits() {
	a := l.a
	a.mu.Lock()
	edits, undone := a.plan.edits, a.plan.undone
	a.plan.edits, a.plan.undone = nil, nil
	list := a.todos.Clone()
	a.mu.Unlock()
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
	if len(a.todos.Open()) == 0 {
		a.mu.Unlock()
		return "", ErrNoPlan
	}
	if a.mode == ModePlan {
		a.mode = a.plan.beforePlan
	}
	a.plan.proposal = nil
	prompt := "I approve this plan. Carry it out now, item by item, keeping the todo list up to date:\n\n" + a.todos.Render()
	a.mu.Unlock()
	if held := a.tasks.takeHeld(); len(held) > 0 {
		prompt += "\n\nThese tasks finished while in plan mode and their changes were held, not applied: " + strings.Join(held, "; ") +
			". Where the plan still wants them, apply their changes from the copies (compare first: the workspace may have changed)."
	}
	_ = a.saveMode() // like SetMode's; the approved plan's turn saves messages next
	_ = a.savePlan()
	return prompt, nil
}
