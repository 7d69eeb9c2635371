package agent

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/undo"
)

// Undo of a task's item: tasks side by side each apply their changes as
// one patch (mergeBack), and the workspace is saved before and after it,
// so an item's task is its own undo point. Undoing such an item takes
// back that patch alone, the files the task changed, leaving what other
// tasks and the model did before or after; when a file of the patch
// changed again after it, the undo is refused, naming the files and who
// changed them.

// partialRestorer is what a checkpoint store offers to restore some files
// only; *checkpoint.Store implements it.
type partialRestorer interface {
	RestoreOnly(ctx context.Context, id string, paths []string) ([]checkpoint.Change, error)
}

// checkpointAfter saves the workspace just after a task's patch for p,
// its item's point made before the patch (nil: none, nothing is saved).
func (l *loop) checkpointAfter(ctx context.Context, p *undo.Point) {
	cp := l.a.cfg.Checkpoints
	if p == nil || cp == nil {
		return
	}
	if s, ok := p.Result(); !ok || s.ID == "" {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, checkpointWait)
	defer cancel()
	saved, err := cp.Save(cctx, "after #"+p.Item+" "+p.Text)
	if err != nil {
		l.emit(Notice{Text: fmt.Sprintf("no undo point after #%s (undoing it takes back what came after it too): %v", p.Item, err)})
		return
	}
	l.a.undo.SetAfter(p, saved.ID)
}

// taskOnly reports whether the item of c is undone alone: its point has
// a snapshot after its task's patch and the store can restore some files.
func (a *Agent) taskOnly(c itemCheckpoint) (differ, partialRestorer, bool) {
	d, ok1 := a.cfg.Checkpoints.(differ)
	r, ok2 := a.cfg.Checkpoints.(partialRestorer)
	return d, r, c.after != "" && ok1 && ok2
}

// taskFiles returns the files the task of item c changed (its patch), or
// an error saying why it cannot be taken back alone: some of them changed
// again after it (by a later item's task, named, or since).
func (a *Agent) taskFiles(ctx context.Context, d differ, c itemCheckpoint) ([]string, error) {
	mine, _, err := d.Diff(ctx, c.id, c.after)
	if err != nil {
		return nil, fmt.Errorf("undo #%s: %w", c.item, err)
	}
	later, _, err := d.Diff(ctx, c.after, "")
	if err != nil {
		return nil, fmt.Errorf("undo #%s: %w", c.item, err)
	}
	paths := make([]string, 0, len(mine))
	for _, ch := range mine {
		paths = append(paths, ch.Path)
	}
	shared := only(later, paths)
	if len(shared) == 0 {
		return paths, nil
	}
	by := a.changedBy(ctx, d, c.p, shared)
	return nil, fmt.Errorf("%w: #%s cannot be undone alone: its files %s changed again after its task (%s); undo %s first, or /rewind",
		ErrNoUndo, c.item, strings.Join(shared, ", "), by, orItems(by))
}

// changedBy names who changed the files shared after point p: the later
// items whose task's patch touched them, else "since".
func (a *Agent) changedBy(ctx context.Context, d differ, p *undo.Point, shared []string) string {
	var items []string
	for _, q := range a.undo.Later(p) {
		after := a.undo.After(q)
		s, ok := q.Result()
		if q.Kind != PointItem || after == "" || !ok {
			continue
		}
		cs, _, err := d.Diff(ctx, s.ID, after)
		if err == nil && len(only(cs, shared)) > 0 {
			items = append(items, "#"+q.Item)
		}
	}
	if len(items) == 0 {
		return "changed since"
	}
	return "by " + strings.Join(items, ", ")
}

// orItems is what to undo first: the items named in by, or them.
func orItems(by string) string {
	if items, ok := strings.CutPrefix(by, "by "); ok {
		return items
	}
	return "the later changes"
}

// only returns the paths of the changes of cs whose path is one of
// paths (onlyChanges), sorted.
func only(cs []checkpoint.Change, paths []string) []string {
	var out []string
	for _, c := range onlyChanges(cs, paths) {
		out = append(out, c.Path)
	}
	sort.Strings(out)
	return out
}
