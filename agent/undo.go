package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/undo"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Checkpointer keeps snapshots of the workspace for undo by item;
// *checkpoint.Store implements it.
type Checkpointer interface {
	Save(ctx context.Context, label string) (checkpoint.Checkpoint, error)
	Changes(ctx context.Context, id string) ([]checkpoint.Change, error)
	Restore(ctx context.Context, id string) ([]checkpoint.Change, error)
}

// checkpointWait is the most a todo call waits for its checkpoint; a
// slower one (the first snapshot of a large workspace, still running) is
// skipped with a notice rather than stalling the turn.
const checkpointWait = 3 * time.Second

// ErrNoUndo is returned by PreviewUndo and Undo when there is nothing to
// undo: no checkpoints (undo off, or no item started yet), or none for the
// item asked.
var ErrNoUndo = errors.New("nothing to undo")

// checkpointStarted records a checkpoint before each item that goes in
// progress for the first time in list (compared with before).
func (l *loop) checkpointStarted(ctx context.Context, before, list todo.List) {
	it, ok := list.Current()
	if !ok {
		return
	}
	if i := before.Find(it.ID); i >= 0 && before.Items[i].Status == todo.InProgress {
		return
	}
	l.checkpointBefore(ctx, it, before)
}

// checkpointBefore records the undo point of item it, with before the
// list the point keeps, unless it has one already (its first start
// counts) or undo is off. It returns the point it made, nil when it made
// none or its snapshot failed.
func (l *loop) checkpointBefore(ctx context.Context, it todo.Item, before todo.List) *undo.Point {
	cp := l.a.cfg.Checkpoints
	if cp == nil || l.child {
		return nil
	}
	a := l.a
	a.mu.Lock()
	p, ok := a.undo.AddItem(undo.Point{Item: it.ID, Text: it.Text, Hist: beforeLastAssistant(a.history), Todos: before, Folded: a.folded})
	a.mu.Unlock()
	if !ok {
		return nil // its first start counts
	}
	l.awaitTurnPoint(ctx) // the message's point comes first in the store
	cctx, cancel := context.WithTimeout(ctx, checkpointWait)
	defer cancel()
	saved, err := cp.Save(cctx, "before #"+it.ID+" "+it.Text)
	a.undo.Finish(p, saved, err) // a failed one is dropped
	if err != nil {
		l.emit(Notice{Text: fmt.Sprintf("no undo point before #%s: %v", it.ID, err)})
		return nil
	}
	if len(saved.Skipped) > 0 {
		l.emit(Notice{Text: fmt.Sprintf("the undo point before #%s leaves out %s", it.ID, skipList(saved.Skipped))})
	}
	return p
}

// beforeLastAssistant is hist without its last assistant message and what
// follows it: the conversation before the model's current round.
func beforeLastAssistant(hist []provider.Message) []provider.Message {
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role == provider.RoleAssistant {
			return hist[:i]
		}
	}
	return hist
}

// UndoPreview is what undoing to the state before an item changes: the
// item, the items undone with it (it and every item started after it; a
// task's item alone, see undotask.go), the files, and the files the
// snapshots left out, which the undo leaves as they are (NotKept).
type UndoPreview struct {
	Item    string
	Text    string
	Undone  []string
	Changes []checkpoint.Change
	NotKept []checkpoint.Skip
}

// undoTarget finds the point of item ("" for the last one) and waits
// for its snapshot.
func (a *Agent) undoTarget(ctx context.Context, item string) (itemCheckpoint, error) {
	if a.cfg.Checkpoints == nil {
		return itemCheckpoint{}, fmt.Errorf("%w: undo is off in this run (it needs git; see tick doctor)", ErrNoUndo)
	}
	item = strings.TrimPrefix(item, "#")
	p, ok := a.undo.Target(item)
	switch {
	case !ok && item == "":
		return itemCheckpoint{}, fmt.Errorf("%w yet: an undo point is made when a todo item starts", ErrNoUndo)
	case !ok:
		return itemCheckpoint{}, fmt.Errorf("%w: no undo point for #%s (it has not started)", ErrNoUndo, item)
	}
	s, err := p.Wait(ctx)
	if err != nil {
		return itemCheckpoint{}, fmt.Errorf("%w: the undo point %q: %w", ErrNoUndo, p.Text, err)
	}
	return itemCheckpoint{p: p, item: p.Item, text: p.Text, id: s.ID, after: a.undo.After(p), skip: s.Skipped, task: p.Task}, nil
}

// itemCheckpoint is the workspace before an item first went in progress
// (and, for a task's item, after its patch): its point p (which keeps
// the list of then) and its snapshot.
type itemCheckpoint struct {
	p                     *undo.Point
	item, text, id, after string
	skip                  []checkpoint.Skip
	task                  int // the kept task applied (a PointApply point), 0 for an item
}

// undoPlan is what an undo of item does: its point's checkpoint, the
// items undone, and the files (nil: all) it restores.
type undoPlan struct {
	c      itemCheckpoint
	undone []string
	paths  []string
	alone  bool
}

// planUndo works out what Undo(item) does, without changing anything.
func (a *Agent) planUndo(ctx context.Context, item string) (undoPlan, error) {
	c, err := a.undoTarget(ctx, item)
	if err != nil {
		return undoPlan{}, err
	}
	if c.task > 0 { // the user's apply of a kept task: no item goes back
		return undoPlan{c: c}, nil
	}
	if d, _, ok := a.taskOnly(c); ok {
		paths, err := a.taskFiles(ctx, d, c)
		if err != nil {
			return undoPlan{}, err
		}
		return undoPlan{c: c, undone: []string{c.item}, paths: paths, alone: true}, nil
	}
	return undoPlan{c: c, undone: a.undoneFrom(c.p)}, nil
}

// PreviewUndo says what Undo(item) would change, without changing
// anything. item "" means the last item that started.
func (a *Agent) PreviewUndo(ctx context.Context, item string) (UndoPreview, error) {
	u, err := a.planUndo(ctx, item)
	if err != nil {
		return UndoPreview{}, err
	}
	cs, err := a.cfg.Checkpoints.Changes(ctx, u.c.id)
	if err != nil {
		return UndoPreview{}, fmt.Errorf("preview undo of #%s: %w", u.c.item, err)
	}
	if u.alone {
		cs = onlyChanges(cs, u.paths)
	}
	return UndoPreview{Item: u.c.item, Text: u.c.text, Undone: u.undone, Changes: cs, NotKept: a.notKept(u.c.skip)}, nil
}

// undoneFrom lists the items an undo to point p takes back: those whose
// points are p or later, then those the list before it did not have
// completed that are completed or in progress now (an item completed
// without starting, by the same todo call as another). An item the user
// cancelled stays cancelled (its files go back all the same), unless it
// is p's own, which the user asked to undo.
func (a *Agent) undoneFrom(p *undo.Point) []string {
	from := a.undo.ItemsFrom(p)
	then := p.Todos
	a.mu.Lock()
	defer a.mu.Unlock()
	var ids []string
	seen := map[string]bool{}
	for _, id := range a.plan.CancelledIDs() {
		seen[id] = id != p.Item
	}
	for _, id := range from {
		if !seen[id] {
			ids, seen[id] = append(ids, id), true
		}
	}
	for _, it := range a.plan.List().Items {
		if seen[it.ID] || (it.Status != todo.Completed && it.Status != todo.InProgress) {
			continue
		}
		if j := then.Find(it.ID); j < 0 || then.Items[j].Status != todo.Completed {
			ids, seen[it.ID] = append(ids, it.ID), true
		}
	}
	return ids
}

// Undo restores the workspace to its state before item started ("" for
// the last item that started), marks that item and the ones whose work
// came after it pending again with the note "undone", and tells the model
// at its next call what was restored; a task's item is undone alone (see
// undotask.go). It fails while a turn runs (ErrBusy). It returns what was
// restored and the events it caused: a TodoUpdate with the new list,
// which a front-end applies as it applies a turn's, and a Notice naming
// the items pending again.
func (a *Agent) Undo(ctx context.Context, item string) (UndoPreview, []Event, error) {
	if a.isRunning() {
		return UndoPreview{}, nil, ErrBusy
	}
	u, err := a.planUndo(ctx, item)
	if err != nil {
		return UndoPreview{}, nil, err
	}
	var cs []checkpoint.Change
	if u.alone {
		_, r, _ := a.taskOnly(u.c)
		cs, err = r.RestoreOnly(ctx, u.c.id, u.paths)
	} else {
		cs, err = a.cfg.Checkpoints.Restore(ctx, u.c.id)
	}
	if err != nil {
		return UndoPreview{}, nil, fmt.Errorf("undo #%s: %w", u.c.item, err)
	}
	up, unapplied := a.markUndone(u, cs)
	for _, n := range unapplied {
		a.tasks.setApplied(n, false)
	}
	_ = a.savePlan() // the undo note, for the model after a resume
	notice := Notice{Text: pendingAgain(u.undone)}
	if u.c.task > 0 {
		notice.Text = "took back " + u.c.text + ": the files are as they were before it"
	}
	return UndoPreview{Item: u.c.item, Text: u.c.text, Undone: u.undone, Changes: cs, NotKept: a.notKept(u.c.skip)}, []Event{up, notice}, nil
}

// markUndone drops the points u undid, puts its items back to pending and
// records the note for the model; it returns the new list's update.
func (a *Agent) markUndone(u undoPlan, cs []checkpoint.Change) (TodoUpdate, []int) {
	a.mu.Lock()
	unapplied := a.undo.TakeBack(u.c.p, u.alone) // the kept tasks whose apply this undo takes back
	// Its items are pending again; the user's cancel gives way (see undoneFrom).
	list, rev := a.plan.Undo(u.undone, undoNote(u, cs))
	up := TodoUpdate{List: list.Clone(), Rev: rev}
	rec := a.cfg.Recorder
	a.mu.Unlock()
	if rec != nil {
		_ = rec.Todo(list)
	}
	return up, unapplied
}

// pendingAgain tells the user which items an undo put back to pending.
func pendingAgain(ids []string) string {
	if len(ids) == 1 {
		return "#" + ids[0] + " is pending again: its changes were taken back"
	}
	return "#" + strings.Join(ids, ", #") + " are pending again: their changes were taken back"
}

// undoNote tells the model what an undo restored.
func undoNote(u undoPlan, cs []checkpoint.Change) string {
	var b strings.Builder
	c, undone := u.c, u.undone
	if c.task > 0 {
		return "The user undid " + c.text + ": the workspace is back to its state before it. " + restoredFiles(cs)
	}
	fmt.Fprintf(&b, "The user undid #%s", c.item)
	switch {
	case u.alone:
		b.WriteString(": the changes its task applied are taken back (the rest of the workspace is as it was), and it is pending again.")
	default:
		if len(undone) > 1 {
			fmt.Fprintf(&b, " and the items whose work came after it (#%s)", strings.Join(undone[1:], ", #"))
		}
		b.WriteString(": the workspace is back to its state before #" + c.item + " started, and those items are pending again.")
	}
	b.WriteString(" " + restoredFiles(cs))
	return b.String()
}

// onlyChanges returns the changes of cs whose path is one of paths.
func onlyChanges(cs []checkpoint.Change, paths []string) []checkpoint.Change {
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	out := []checkpoint.Change{}
	for _, c := range cs {
		if want[c.Path] {
			out = append(out, c)
		}
	}
	return out
}
