package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/agent/workcopy"
)

// isolate decides whether a task works in its own copy of the workspace:
// one that may change files (not read-only, not in plan mode), with the
// standard tools (they can be pointed at a copy); its changes then come
// back as one patch when it ends, whatever changed in the workspace
// meanwhile (another task's patch, the user's edits). It makes the copy, or returns nil to work in place; a workspace
// too large to copy works in place with a notice.
func (l *loop) isolate(ctx context.Context, readOnly bool) (*workcopy.Copy, error) {
	if !l.isolated(readOnly) {
		return nil, nil
	}
	wc, err := workcopy.New(l.a.cfg.Workspace, "")
	if errors.Is(err, workcopy.ErrTooLarge) {
		l.emit(Notice{Text: fmt.Sprintf("a task works in the workspace itself, not a copy: %v", err)})
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("could not give the subagent its own copy of the workspace: %w", err)
	}
	return wc, nil
}

// isolated reports whether a task started with ctx works in a copy (see
// isolate).
func (l *loop) isolated(readOnly bool) bool {
	a := l.a
	return !readOnly && a.Mode() != ModePlan && a.cfg.Tools == nil
}

// copyTools returns the base tools working in the copy dir (commands
// confined to it as they are to the workspace) and the extra tools.
func (l *loop) copyTools(dir string) ([]tools.Tool, error) {
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		return nil, fmt.Errorf("open the task's copy %s: %w", dir, err)
	}
	opts := l.a.cfg.ToolOptions
	if r := opts.Sandbox; r != nil {
		opts.Sandbox = r.ForWorkspace(dir)
	}
	return append(tools.Base(ws, opts), l.extra...), nil
}

// mergeBack brings an isolated task's changes into the workspace as one
// patch and returns what the parent model is told besides the task's
// result. One patch is applied at a time. A task that failed or was
// stopped keeps its copy unapplied; a patch that conflicts is not applied
// at all, and its copy is kept; the user is told in a Notice. Before a
// patch of a task on a plan item is applied, the workspace is saved as
// that item's undo point (unless it has one), and again after it: undoing
// the item takes that patch alone back (see undoTask).
func (l *loop) mergeBack(ctx context.Context, wc *workcopy.Copy, desc, item string, failed bool) string {
	a := l.a
	a.tasks.mergeMu.Lock()
	defer a.tasks.mergeMu.Unlock()
	changes, err := wc.Changes()
	switch {
	case err != nil:
		l.emit(Notice{Text: fmt.Sprintf("the task %q: %v; its copy is kept at %s", desc, err, wc.Dir)})
		return fmt.Sprintf("Its changes could not be read (%v); its copy is kept at %s.", err, wc.Dir)
	case len(changes) == 0:
		_ = wc.Remove()
		return ""
	case failed:
		l.emit(Notice{Text: fmt.Sprintf("the task %q did not finish; its changes (%s) were not applied; its copy is kept at %s", desc, workcopy.Describe(changes, 5), wc.Dir)})
		return fmt.Sprintf("Its changes (%s) were not applied; its copy is kept at %s.", workcopy.Describe(changes, 10), wc.Dir)
	}
	var point *undoPoint
	if item != "" {
		point = l.checkpointItem(ctx, item)
	}
	applied, conflicts, err := wc.Apply()
	switch {
	case err != nil:
		l.emit(Notice{Text: fmt.Sprintf("the task %q: applying its changes failed: %v; its copy is kept at %s", desc, err, wc.Dir)})
		return fmt.Sprintf("Applying its changes failed after %s: %v; its copy is kept at %s.", orNothing(workcopy.Describe(applied, 10)), err, wc.Dir)
	case len(conflicts) > 0:
		files := strings.Join(conflicts, ", ")
		l.emit(Notice{Text: fmt.Sprintf("the task %q changed files that changed in the workspace meanwhile (%s): none of its changes were applied; its copy is kept at %s", desc, files, wc.Dir)})
		return fmt.Sprintf("None of its changes were applied: these files changed in the workspace meanwhile: %s. Its copy is kept at %s; compare and apply by hand.", files, wc.Dir)
	}
	_ = wc.Remove()
	l.checkpointAfter(ctx, point)
	l.emit(Notice{Text: fmt.Sprintf("applied the task %q's changes: %s", desc, workcopy.Describe(applied, 5))})
	return "Its changes were applied to the workspace: " + workcopy.Describe(applied, 10) + "."
}

// orNothing returns s, or "nothing" when it is empty.
func orNothing(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}
