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
// counts) or undo is off.
func (l *loop) checkpointBefore(ctx context.Context, it todo.Item, before todo.List) {
	cp := l.a.cfg.Checkpoints
	if cp == nil || l.child {
		return
	}
	a := l.a
	a.mu.Lock()
	for _, p := range a.undo.points {
		if p.kind == PointItem && p.item == it.ID {
			a.mu.Unlock()
			return // its first start counts
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
		return
	}
	if len(saved.Skipped) > 0 {
		l.emit(Notice{Text: fmt.Sprintf("the undo point before #%s leaves out %s", it.ID, skipList(saved.Skipped))})
	}
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
// item, the items undone with it (it and every item started after it) and
// the files.
type UndoPreview struct {
	Item    string
	Text    string
	Undone  []string
	Changes []checkpoint.Change
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
		if p.kind == PointItem && (item == "" || p.item == item) {
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
	return found, itemCheckpoint{item: p.item, text: p.text, id: p.id}, nil
}

// itemCheckpoint is the workspace before an item first went in progress.
type itemCheckpoint struct {
	item, text, id string
}

// PreviewUndo says what Undo(item) would change, without changing
// anything. item "" means the last item that started.
func (a *Agent) PreviewUndo(ctx context.Context, item string) (UndoPreview, error) {
	i, c, err := a.undoTarget(item)
	if err != nil {
		return UndoPreview{}, err
	}
	cs, err := a.cfg.Checkpoints.Changes(ctx, c.id)
	if err != nil {
		return UndoPreview{}, fmt.Errorf("preview undo of #%s: %w", c.item, err)
	}
	return UndoPreview{Item: c.item, Text: c.text, Undone: a.undoneFrom(i), Changes: cs}, nil
}

// undoneFrom lists the items whose checkpoints are at index i or later.
func (a *Agent) undoneFrom(i int) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var ids []string
	for _, p := range a.undo.points[i:] {
		if p.kind == PointItem {
			ids = append(ids, p.item)
		}
	}
	return ids
}

// Undo restores the workspace to its state before item started ("" for
// the last item that started), marks that item and the ones started after
// it pending again with the note "undone", and tells the model at its next
// call what was restored. It fails while a turn runs (ErrBusy). It
// returns what was restored and the events it caused: a TodoUpdate with
// the new list, which a front-end applies as it applies a turn's.
func (a *Agent) Undo(ctx context.Context, item string) (UndoPreview, []Event, error) {
	if a.isRunning() {
		return UndoPreview{}, nil, ErrBusy
	}
	i, c, err := a.undoTarget(item)
	if err != nil {
		return UndoPreview{}, nil, err
	}
	undone := a.undoneFrom(i)
	cs, err := a.cfg.Checkpoints.Restore(ctx, c.id)
	if err != nil {
		return UndoPreview{}, nil, fmt.Errorf("undo #%s: %w", c.item, err)
	}
	a.mu.Lock()
	a.undo.points = a.undo.points[:i:i]
	for _, id := range undone {
		if j := a.todos.Find(id); j >= 0 {
			a.todos.Items[j].Status, a.todos.Items[j].Note = todo.Pending, "undone by the user"
		}
	}
	a.plan.rev++
	a.plan.undone = append(a.plan.undone, undoNote(c, undone, cs))
	list := a.todos.Clone()
	up := TodoUpdate{List: list.Clone(), Rev: a.plan.rev}
	rec := a.cfg.Recorder
	a.mu.Unlock()
	if rec != nil {
		_ = rec.Todo(list)
	}
	_ = a.savePlan() // the undo note, for the model after a resume
	return UndoPreview{Item: c.item, Text: c.text, Undone: undone, Changes: cs}, []Event{up}, nil
}

// undoNote tells the model what an undo restored.
func undoNote(c itemCheckpoint, undone []string, cs []checkpoint.Change) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The user undid #%s", c.item)
	if len(undone) > 1 {
		fmt.Fprintf(&b, " and the items started after it (#%s)", strings.Join(undone[1:], ", #"))
	}
	b.WriteString(": the workspace is back to its state before #" + c.item + " started, and those items are pending again.")
	b.WriteString(" " + restoredFiles(cs))
	return b.String()
}
