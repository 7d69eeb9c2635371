package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/agent/undo"
	"github.com/tick-agent/tick/agent/workcopy"
)

// Kept tasks: a task whose patch conflicted with the workspace keeps its
// copy; it is numbered here so that the user can look at its patch
// (TaskPatch) and apply it over the current files (ApplyTask: changes
// on one side taken, files changed on both merged with their conflicting
// hunks marked, see workcopy.Merge), from the notice or later with
// /tasks apply N. The numbers count from 1 in this run.

// ErrNoKeptTask is returned by TaskPatch and ApplyTask for a number that
// names no kept task.
var ErrNoKeptTask = errors.New("no such kept task")

// KeptTask is a task whose changes were kept unapplied because files it
// changed changed in the workspace meanwhile.
type KeptTask struct {
	N       int    // its number, for /tasks apply N
	Desc    string // the task's description
	Item    string // the plan item it worked on, "" for none
	Dir     string // its copy
	Applied bool   // ApplyTask applied it (an undo of that clears it)
}

// keptTask is a KeptTask and its copy; guarded by taskSet.mu.
type keptTask struct {
	KeptTask
	wc *workcopy.Copy
}

// maxKeptTasks bounds the kept tasks a run numbers (each holds its
// copy's file list in memory); past it a conflicting task's copy is only
// named, as before.
const maxKeptTasks = 64

// keepForApply numbers a conflicting task's kept copy and returns its
// number, 0 past maxKeptTasks.
func (s *taskSet) keepForApply(desc, item string, wc *workcopy.Copy) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.kept) >= maxKeptTasks {
		return 0
	}
	n := len(s.kept) + 1
	s.kept = append(s.kept, &keptTask{KeptTask: KeptTask{N: n, Desc: desc, Item: item, Dir: wc.Dir}, wc: wc})
	return n
}

// keptTask returns kept task n and its copy.
func (s *taskSet) keptTask(n int) (KeptTask, *workcopy.Copy, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n < 1 || n > len(s.kept) {
		return KeptTask{}, nil, fmt.Errorf("%w: %d (this run has %d)", ErrNoKeptTask, n, len(s.kept))
	}
	k := s.kept[n-1]
	return k.KeptTask, k.wc, nil
}

// setApplied marks kept task n applied or not.
func (s *taskSet) setApplied(n int, applied bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n >= 1 && n <= len(s.kept) {
		s.kept[n-1].Applied = applied
	}
}

// KeptTasks lists the tasks kept with conflicting changes in this run.
func (a *Agent) KeptTasks() []KeptTask {
	a.tasks.mu.Lock()
	defer a.tasks.mu.Unlock()
	out := make([]KeptTask, 0, len(a.tasks.kept))
	for _, k := range a.tasks.kept {
		out = append(out, k.KeptTask)
	}
	return out
}

// maxTaskPatch bounds the text of TaskPatch: the files past it are named
// with one line each, their hunks left out.
const maxTaskPatch = 8 << 20

// TaskPatch returns kept task n's changes as a front-end shows them: each
// file with its unified diff from what the task started from to what it
// left in its copy (Text names the task), at most about maxTaskPatch
// bytes of hunks.
func (a *Agent) TaskPatch(n int) (ItemChanges, error) {
	k, wc, err := a.tasks.keptTask(n)
	if err != nil {
		return ItemChanges{}, err
	}
	changes, err := wc.Changes()
	if err != nil {
		return ItemChanges{}, fmt.Errorf("show task %d's patch: %w", n, err)
	}
	out := ItemChanges{Text: fmt.Sprintf("task %d %q", n, k.Desc)}
	var b strings.Builder
	for _, ch := range changes {
		out.Files = append(out.Files, fileChange(ch))
		if b.Len() > maxTaskPatch {
			b.WriteString("diff --git a/" + ch.Path + " b/" + ch.Path + "\n--- a/" + ch.Path + "\n+++ b/" + ch.Path + "\n(left out: the task's patch is over " + fmt.Sprint(maxTaskPatch>>20) + " MiB; compare its copy " + k.Dir + ")\n")
			continue
		}
		b.WriteString(patchOf(wc, ch))
	}
	out.Patch = b.String()
	return out, nil
}

// fileChange is a copy's change as /diff lists a file.
func fileChange(ch workcopy.Change) checkpoint.Change {
	switch ch.Kind {
	case "added":
		return checkpoint.Change{Kind: checkpoint.Created, Path: ch.Path}
	case "deleted":
		return checkpoint.Change{Kind: checkpoint.Deleted, Path: ch.Path}
	}
	return checkpoint.Change{Kind: checkpoint.Changed, Path: ch.Path}
}

// patchOf is one change of a copy as a git-style unified diff, from the
// content New kept to the copy's file ("" for a change it cannot show as
// lines: it then says why in one line).
func patchOf(wc *workcopy.Copy, ch workcopy.Change) string {
	head := "diff --git a/" + ch.Path + " b/" + ch.Path + "\n"
	oldName, newName := "a/"+ch.Path, "b/"+ch.Path
	var old, now []byte
	var ok bool
	switch ch.Kind {
	case "added":
		oldName = "/dev/null"
	default:
		if old, ok = wc.BaseContent(ch.Path); !ok {
			return head + "--- " + oldName + "\n+++ " + newName + "\n(its content before the task is not shown: a link, or larger than 1 MiB)\n"
		}
	}
	if ch.Kind == "deleted" {
		newName = "/dev/null"
	} else if now, ok = wc.Content(ch.Path); !ok {
		return head + "--- " + oldName + "\n+++ " + newName + "\n(the task's file is a link, larger than 1 MiB or unreadable)\n"
	}
	if workcopy.IsBinary(old) || workcopy.IsBinary(now) {
		return head + "Binary files " + oldName + " and " + newName + " differ\n"
	}
	return head + tools.UnifiedDiff(oldName, newName, string(old), string(now))
}

// ApplyTask applies kept task n's changes over the current files (see
// workcopy.Merge): what changed on one side only is taken, a file
// changed on both sides is merged with its conflicting hunks between
// markers, a file the task deleted that changed since is left. An undo
// point is made first, so /undo (and /rewind) take the whole apply back.
// It refuses, changing nothing: a task already applied, one whose plan
// item the user cancelled (the user is told; its changes are not
// applied), and a patch Merge refuses (a path into git metadata or
// through a link, a binary file changed on both sides). The model is told
// what the user applied before its next call. It waits for a task's
// patch being applied; tasks still running go on. It returns the events
// for the front-end: a Notice saying what was applied and which files
// have conflict markers.
func (a *Agent) ApplyTask(ctx context.Context, n int) ([]Event, error) {
	a.tasks.mergeMu.Lock() // before the checks: two applies of one task do not both pass them
	defer a.tasks.mergeMu.Unlock()
	k, wc, err := a.tasks.keptTask(n)
	if err != nil {
		return nil, err
	}
	if k.Applied {
		return nil, fmt.Errorf("task %d %q is applied already (/undo takes it back)", n, k.Desc)
	}
	if reason, ok := a.userCancelled(k.Item); ok {
		return nil, fmt.Errorf("task %d %q was not applied: you cancelled its item #%s (%q), so its changes stay out; its copy is kept at %s", n, k.Desc, k.Item, reason, k.Dir)
	}
	p, evs, err := a.applyPoint(ctx, k)
	if err != nil {
		return nil, err
	}
	res, err := wc.Merge(nil)
	if err != nil {
		a.dropPoint(p)
		return nil, fmt.Errorf("apply task %d %q: %w; nothing was applied, its copy is kept at %s", n, k.Desc, err, k.Dir)
	}
	a.tasks.setApplied(n, true)
	a.mu.Lock()
	a.plan.Note(appliedNote(k, res))
	a.mu.Unlock()
	_ = a.savePlan() // the note, for the model after a resume
	return append(evs, Notice{Text: appliedText(k, res)}), nil
}

// applyPoint saves the undo point before applying kept task k (none when
// undo is off: a Notice says so).
func (a *Agent) applyPoint(ctx context.Context, k KeptTask) (*undo.Point, []Event, error) {
	cp := a.cfg.Checkpoints
	if cp == nil {
		return nil, []Event{Notice{Text: "undo is off in this run: /undo cannot take this apply back"}}, nil
	}
	a.mu.Lock()
	hist := a.history
	if a.running { // mid-round: the conversation before the model's round
		hist = beforeLastAssistant(hist)
	}
	p := a.undo.Add(undo.Point{Kind: PointApply, Text: fmt.Sprintf("applying task %d %q", k.N, k.Desc),
		Hist: hist, Todos: a.plan.List(), Folded: a.folded, Task: k.N})
	a.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, checkpointWait)
	defer cancel()
	saved, err := cp.Save(cctx, "before "+p.Text)
	a.undo.Finish(p, saved, err) // a failed one is dropped
	if err != nil {
		return nil, nil, fmt.Errorf("apply task %d: no undo point could be made, so nothing was applied: %w", k.N, err)
	}
	var evs []Event
	if len(saved.Skipped) > 0 {
		evs = append(evs, Notice{Text: "the undo point before applying the task leaves out " + skipList(saved.Skipped)})
	}
	return p, evs, nil
}

// dropPoint removes p (nil: none) from the undo points.
func (a *Agent) dropPoint(p *undo.Point) {
	if p != nil {
		a.undo.Drop(p)
	}
}

// appliedText tells the user what applying k did.
func appliedText(k KeptTask, res workcopy.MergeResult) string {
	var parts []string
	if len(res.Applied) > 0 {
		parts = append(parts, "applied "+workcopy.Describe(res.Applied, 5))
	}
	var marked, clean []string
	for _, m := range res.Merged {
		if m.Conflicts > 0 {
			marked = append(marked, fmt.Sprintf("%s (%d)", m.Path, m.Conflicts))
		} else {
			clean = append(clean, m.Path)
		}
	}
	if len(clean) > 0 {
		parts = append(parts, "merged "+strings.Join(clean, ", "))
	}
	if len(marked) > 0 {
		parts = append(parts, "conflicts marked ("+workcopy.MarkCurrent+" … "+workcopy.MarkTask+") in "+strings.Join(marked, ", "))
	}
	if len(res.Kept) > 0 {
		parts = append(parts, "left as they are (deleted by the task, changed since): "+strings.Join(res.Kept, ", "))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing to change: the files are already as the task left them")
	}
	return fmt.Sprintf("task %d %q: %s · /undo takes it back", k.N, k.Desc, strings.Join(parts, " · "))
}

// appliedNote tells the model what the user applied.
func appliedNote(k KeptTask, res workcopy.MergeResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The user applied the changes of the task %q (kept earlier because its files changed meanwhile) over the current files.", k.Desc)
	if len(res.Applied) > 0 {
		b.WriteString(" Applied as the task left them: " + workcopy.Describe(res.Applied, 10) + ".")
	}
	for _, m := range res.Merged {
		if m.Conflicts > 0 {
			fmt.Fprintf(&b, " %s was merged with %d conflicting hunk(s) between %q, %q and %q lines: the user resolves them, or asks you to.", m.Path, m.Conflicts, workcopy.MarkCurrent, workcopy.MarkSplit, workcopy.MarkTask)
		} else {
			fmt.Fprintf(&b, " %s was merged without conflict.", m.Path)
		}
	}
	if len(res.Kept) > 0 {
		b.WriteString(" Left as they are (the task deleted them, but they changed since): " + strings.Join(res.Kept, ", ") + ".")
	}
	b.WriteString(" Read the files again before you rely on them.")
	return b.String()
}
