package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/checkpoint"
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
func (l *loop) checkpointBefore(ctx context.Context, it todo.Item, before todo.List) *undoPoint {
	cp := l.a.cfg.Checkpoints
	if cp == nil || l.child {
		return nil
	}
	a := l.a
	a.mu.Lock()
	for _, p := range a.undo.points {
		if p.isItem(it.ID, a.undo.gen) {
			a.mu.Unlock()
			return nil // its first start counts
		}
	}
	p := a.addPointLocked(PointItem, it.ID, it.Text, beforeLastAssistant(a.history), before)
	a.mu.Unlock()
	l.awaitTurnPoint(ctx) // the message's point comes first in the store
	cctx, cancel := context.WithTimeout(ctx, checkpointWait)
	defer cancel()
	saved, err := cp.Save(cctx, "before #"+it.ID+" "+it.Text)
	a.mu.Lock()
	p.id, p.err, p.skip = saved.ID, err, saved.Skipped
	if err != nil {
		a.dropPointLocked(p)
	}
	a.mu.Unlock()
	close(p.done)
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

// dropPointLocked removes p from the points; a.mu is held.
func (a *Agent) dropPointLocked(p *undoPoint) {
	for i, q := range a.undo.points {
		if q == p {
			a.undo.points = append(a.undo.points[:i:i], a.undo.points[i+1:]...)
			return
		}
	}
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

// undoTarget finds the checkpoint of item ("" for the last one).
func (a *Agent) undoTarget(item string) (int, itemCheckpoint, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cfg.Checkpoints == nil {
		return 0, itemCheckpoint{}, fmt.Errorf("%w: undo is off in this run (it needs git; see tick doctor)", ErrNoUndo)
	}
	item = strings.TrimPrefix(item, "#")
	found := -1
	for i, p := range a.undo.points {
		if p.isItem(item, a.undo.gen) || (item == "" && p.kind == PointApply) {
			found = i
		}
	}
	switch {
	case found < 0 && item == "":
		return 0, itemCheckpoint{}, fmt.Errorf("%w yet: an undo point is made when a todo item starts", ErrNoUndo)
	case found < 0:
		return 0, itemCheckpoint{}, fmt.Errorf("%w: no undo point for #%s (it has not started)", ErrNoUndo, item)
	}
	p := a.undo.points[found]
	return found, itemCheckpoint{item: p.item, text: p.text, id: p.id, after: p.after, todos: p.todos.Clone(), skip: p.skip, task: p.task}, nil
}

// itemCheckpoint is the workspace before an item first went in progress
// (and, for a task's item, after its patch), with the list of then.
type itemCheckpoint struct {
	item, text, id, after string
	todos                 todo.List
	skip                  []checkpoint.Skip
	task                  int // the kept task applied (a PointApply point), 0 for an item
}

// undoPlan is what an undo of item does: the point's index, its
// checkpoint, the items undone, and the files (nil: all) it restores.
type undoPlan struct {
	i      int
	c      itemCheckpoint
	undone []string
	paths  []string
	alone  bool
}

// planUndo works out what Undo(item) does, without changing anything.
func (a *Agent) planUndo(ctx context.Context, item string) (undoPlan, error) {
	i, c, err := a.undoTarget(item)
	if err != nil {
		return undoPlan{}, err
	}
	if c.task > 0 { // the user's apply of a kept task: no item goes back
		return undoPlan{i: i, c: c}, nil
	}
	if d, _, ok := a.taskOnly(c); ok {
		paths, err := a.taskFiles(ctx, d, i, c)
		if err != nil {
			return undoPlan{}, err
		}
		return undoPlan{i: i, c: c, undone: []string{c.item}, paths: paths, alone: true}, nil
	}
	return undoPlan{i: i, c: c, undone: a.undoneFrom(i, c.todos)}, nil
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

// undoneFrom lists the items an undo to point i takes back: those whose
// points are at index i or later, then those the list before it (then)
// did not have completed that are completed or in progress now (an item
// completed without starting, by the same todo call as another). An item
// the user cancelled stays cancelled (its files go back all the same),
// unless it is point i's own, which the user asked to undo.
func (a *Agent) undoneFrom(i int, then todo.List) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var ids []string
	seen := map[string]bool{}
	for _, id := range a.plan.CancelledIDs() {
		seen[id] = id != a.undo.points[i].item
	}
	for _, p := range a.undo.points[i:] {
		if p.kind == PointItem && !seen[p.item] {
			ids, seen[p.item] = append(ids, p.item), true
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
	var unapplied []int // the kept tasks whose apply this undo takes back
	if !u.alone {
		unapplied = appliedIn(a.undo.points[u.i:])
	}
	if u.alone {
		a.undo.points = append(a.undo.points[:u.i:u.i], a.undo.points[u.i+1:]...)
	} else {
		a.undo.points = a.undo.points[:u.i:u.i]
	}
	list, rev := a.plan.Undo(u.undone, undoNote(u, cs)) // pending again; the user's cancel gives way (see undoneFrom)
	up := TodoUpdate{List: list.Clone(), Rev: rev}
	rec := a.cfg.Recorder
	a.mu.Unlock()
	if rec != nil {
		_ = rec.Todo(list)
	}
	return up, unapplied
}

// appliedIn lists the kept tasks whose applies pts hold (PointApply).
func appliedIn(pts []*undoPoint) []int {
	var out []int
	for _, p := range pts {
		if p.kind == PointApply {
			out = append(out, p.task)
		}
	}
	return out
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
