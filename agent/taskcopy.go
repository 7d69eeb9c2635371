package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/agent/undo"
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
	wc, err := workcopy.New(l.a.cfg.Workspace, l.a.copyParent())
	if errors.Is(err, workcopy.ErrTooLarge) {
		l.emit(Notice{Text: fmt.Sprintf("a task works in the workspace itself, not a copy: %v", err)})
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("could not give the subagent its own copy of the workspace: %w", err)
	}
	return wc, nil
}

// copyParent returns where a task's copy goes: the session's own
// directory (workcopy.SessionDir), so that a session resumed after tick
// was killed finds its tasks' copies; "" (the temp directory) without a
// session, when it cannot be made, or when what is there is a link or
// open to others.
func (a *Agent) copyParent() string {
	if a.cfg.SessionID == nil {
		return ""
	}
	dir := workcopy.SessionDir(a.cfg.SessionID())
	if dir == "" || os.MkdirAll(dir, 0o700) != nil {
		return ""
	}
	if info, err := os.Lstat(dir); err != nil || !info.IsDir() || info.Mode().Perm()&0o077 != 0 {
		return "" // a link or a directory others may enter (planted in a shared temp directory): not ours
	}
	return dir
}

// isolated reports whether a task started with ctx works in a copy (see
// isolate).
func (l *loop) isolated(readOnly bool) bool {
	a := l.a
	return !readOnly && a.Mode() != ModePlan && a.cfg.Tools == nil
}

// ownTools returns the base tools working in dir (a task's copy, or the
// workspace for a task in place) with a runner of their own, so that each
// task's commands have their own before and after watch of git metadata
// (a task in place would otherwise take what another one planted for
// its baseline), and the extra tools. Without a runner it returns nil:
// the loop keeps the agent's tools.
func (l *loop) ownTools(dir string) ([]tools.Tool, *sandbox.Runner, error) {
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("open the task's copy %s: %w", dir, err)
	}
	opts := l.a.cfg.ToolOptions
	if opts.Sandbox != nil {
		opts.Sandbox = opts.Sandbox.ForWorkspace(dir)
	}
	return append(tools.Base(ws, opts), l.extra...), opts.Sandbox, nil
}

// mergeBack brings an isolated task's changes into the workspace as one
// patch and returns what the parent model is told besides the task's
// result. One patch is applied at a time. A task that failed or was
// stopped keeps its copy unapplied; a patch that conflicts, or that tick
// refuses (a path into git metadata or through a link), is not applied
// at all, and its copy is kept, its planted git metadata removed first
// (see keep); the user is told in a Notice. Once tick is exiting
// (StopMerges) no patch is applied. Before a patch of a task on a plan
// item is applied, the workspace is saved as that item's undo point
// (unless it has one), and again after it: undoing the item takes that
// patch alone back (see undoTask).
func (l *loop) mergeBack(ctx context.Context, wc *workcopy.Copy, desc, item string, failed bool) string {
	a := l.a
	a.tasks.mergeMu.Lock()
	defer a.tasks.mergeMu.Unlock()
	changes, err := wc.Changes()
	switch {
	case err != nil:
		where := l.keep(wc)
		l.emit(Notice{Text: fmt.Sprintf("the task %q: %v; %s", desc, err, where), KeptCopy: wc.Dir})
		return fmt.Sprintf("Its changes could not be read (%v); %s.", err, where)
	case len(changes) == 0:
		_ = wc.Remove()
		return ""
	}
	if reason, ok := l.a.userCancelled(item); ok {
		where := l.keep(wc)
		l.emit(Notice{Text: fmt.Sprintf("the user cancelled #%s: the task %q's changes (%s) were discarded, not applied; %s for review", item, desc, workcopy.Describe(changes, 5), where)})
		return fmt.Sprintf("The user cancelled plan item #%s (%q): its changes (%s) were discarded, not applied; %s for the user's review. Do not apply them.", item, reason, workcopy.Describe(changes, 10), where)
	}
	if a.Mode() == ModePlan {
		where := l.keep(wc)
		a.tasks.hold(desc, wc.Dir)
		l.emit(Notice{Text: fmt.Sprintf("plan mode: the task %q's changes (%s) are held, not applied, until a plan is approved; %s", desc, workcopy.Describe(changes, 5), where)})
		return fmt.Sprintf("Its changes (%s) were not applied: the user switched to plan mode, where nothing changes until a plan is approved; %s. They are offered again when the plan is approved.", workcopy.Describe(changes, 10), where)
	}
	switch {
	case failed:
		where := l.keep(wc)
		l.emit(Notice{Text: fmt.Sprintf("the task %q did not finish; its changes (%s) were not applied; %s", desc, workcopy.Describe(changes, 5), where), KeptCopy: wc.Dir})
		return fmt.Sprintf("Its changes (%s) were not applied; %s.", workcopy.Describe(changes, 10), where)
	}
	stop, ok := a.tasks.beginApply(desc)
	if !ok {
		where := l.keep(wc)
		l.emit(Notice{Text: fmt.Sprintf("tick is exiting: the task %q's changes were not applied; %s", desc, where), KeptCopy: wc.Dir})
		return fmt.Sprintf("Its changes were not applied: tick is exiting; %s.", where)
	}
	var point *undo.Point
	if item != "" {
		point = l.checkpointItem(ctx, item)
	}
	applied, conflicts, err := wc.Apply(stop)
	note := l.merged(wc, desc, item, applied, conflicts, err)
	a.tasks.endApply(note)
	if err == nil && len(conflicts) == 0 {
		l.checkpointAfter(ctx, point) // the item's undo takes this patch alone back
	}
	return note
}

// merged reports how a patch's Apply went: the Notice for the user (kept
// for StopMerges too) and the note for the parent model.
func (l *loop) merged(wc *workcopy.Copy, desc, item string, applied []workcopy.Change, conflicts []string, err error) string {
	var refused *workcopy.RefusedError
	switch {
	case errors.As(err, &refused):
		where := l.keep(wc)
		l.emit(Notice{Text: fmt.Sprintf("the task %q: %v; none of its changes were applied; %s", desc, err, where), KeptCopy: wc.Dir})
		return fmt.Sprintf("None of its changes were applied: %v. %s; check it before applying anything by hand.", err, capital(where))
	case errors.Is(err, workcopy.ErrRolledBack):
		where := l.keep(wc)
		l.emit(Notice{Text: fmt.Sprintf("tick is exiting: the task %q's patch was rolled back, none of its changes were applied; %s", desc, where), KeptCopy: wc.Dir})
		return fmt.Sprintf("None of its changes were applied: tick was exiting and rolled its patch back. %s.", capital(where))
	case err != nil:
		where := l.keep(wc)
		l.emit(Notice{Text: fmt.Sprintf("the task %q: applying its changes failed: %v; %s", desc, err, where), KeptCopy: wc.Dir})
		return fmt.Sprintf("Applying its changes failed: %v; %s.", err, where)
	case len(conflicts) > 0:
		files := strings.Join(conflicts, ", ")
		where := l.keep(wc)
		n := l.a.tasks.keepForApply(desc, item, wc)
		l.emit(Notice{Text: fmt.Sprintf("the task %q changed files that changed in the workspace meanwhile (%s): none of its changes were applied; %s", desc, files, where), KeptCopy: wc.Dir, KeptTask: n})
		return fmt.Sprintf("None of its changes were applied: these files changed in the workspace meanwhile: %s. %s; compare and apply by hand.", files, capital(where))
	}
	_ = wc.Remove()
	l.emit(Notice{Text: fmt.Sprintf("applied the task %q's changes: %s", desc, workcopy.Describe(applied, 5))})
	return "Its changes were applied to the workspace: " + workcopy.Describe(applied, 10) + "."
}

// capital returns s with its first letter upper-cased.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// keep leaves a task's copy for the user and says where: the git
// metadata planted in it (a repository whose config the user's git would
// run there) is moved aside first, and named.
func (l *loop) keep(wc *workcopy.Copy) string {
	where := "its copy is kept at " + wc.Dir
	planted, err := wc.GitEntries()
	if len(planted) > 0 {
		qs, qerr := sandbox.Quarantine(wc.Dir, planted)
		if qerr == nil {
			where += " (tick moved aside the git metadata planted in it: " + listed(asides(qs)) + ")"
		} else {
			err = qerr
		}
	}
	if err != nil {
		where += " (" + err.Error() + "; do not run git there before checking its .git entries)"
	}
	return where
}
