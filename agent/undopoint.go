package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Undo points: every user message (Run) and every item that first goes in
// progress makes one, in the same checkpoint store (Config.Checkpoints).
// A message's snapshot is taken in the background, so the prompt goes to
// the model at once; the first tool call that can change a file (see
// changesFiles) waits for it, and so does the end of the turn, so a point
// is complete before anything it guards changes and no snapshot outlives
// its turn; an interrupt stops it (the point keeps its conversation). An
// item's snapshot is taken before its first change (the todo call that
// starts it, or the change that starts it automatically).

// PointKind says what made an undo point.
type PointKind string

// The kinds of undo point.
const (
	PointTurn  PointKind = "turn"  // a user message, before the model saw it
	PointItem  PointKind = "item"  // a todo item, before it first went in progress
	PointApply PointKind = "apply" // the user applying a kept task's changes (ApplyTask)
)

// maxPoints caps the undo points an Agent keeps; the oldest go first.
const maxPoints = 200

// snapshotTimeout bounds the background snapshot of a user message.
const snapshotTimeout = 10 * time.Minute

// undoPoint is one point: the workspace's snapshot (id, once done is
// closed) and the conversation and list as they were.
type undoPoint struct {
	seq    int
	kind   PointKind
	item   string // the item's id (PointItem)
	text   string // the prompt's first line, or the item's text
	prompt string // the whole message (PointTurn), offered again by Rewind
	at     time.Time
	hist   []provider.Message // the conversation before it; capacity clipped
	todos  todo.List          // the list before it
	done   chan struct{}      // closed once id or err is set
	id     string             // the checkpoint; "" when the snapshot failed
	after  string             // a task's item: the checkpoint just after its patch was applied
	err    error
	skip   []checkpoint.Skip // files the snapshot left out (too large, special)
	folded int               // Agent.folded when it was made
	gen    int               // undoState.gen when it was made: the plan its item is of
	task   int               // the kept task applied (PointApply)
}

// isItem reports whether p is the undo point of item id ("": any item)
// of the plan of generation gen: an item point of a plan put aside since
// does not answer for its id, which a later plan may use for new work.
func (p *undoPoint) isItem(id string, gen int) bool {
	return p.kind == PointItem && p.gen == gen && (id == "" || p.item == id)
}

// wait returns the point's checkpoint once its snapshot is done.
func (p *undoPoint) wait(ctx context.Context) (string, error) {
	select {
	case <-p.done:
		return p.id, p.err
	case <-ctx.Done():
		return "", fmt.Errorf("wait for the undo point: %w", ctx.Err())
	}
}

// undoState is the Agent's undo points, oldest first; guarded by a.mu.
type undoState struct {
	points []*undoPoint
	seq    int
	turn   *undoPoint // the running turn's point, until a change waited for it
	gen    int        // bumped when a plan is put aside (archiveLocked); a rewind sets it back
}

// addPointLocked appends a point made now; a.mu is held.
func (a *Agent) addPointLocked(kind PointKind, item, text string, hist []provider.Message, list todo.List) *undoPoint {
	a.undo.seq++
	p := &undoPoint{seq: a.undo.seq, kind: kind, item: item, text: text, at: time.Now(),
		hist: hist[:len(hist):len(hist)], todos: list.Clone(), done: make(chan struct{}), folded: a.folded, gen: a.undo.gen}
	a.undo.points = append(a.undo.points, p)
	if n := len(a.undo.points); n > maxPoints {
		a.undo.points = append([]*undoPoint(nil), a.undo.points[n-maxPoints:]...)
	}
	return p
}

// firstLine is the first non-blank line of a prompt, at most 200 bytes.
func firstLine(s string) string {
	for _, ln := range strings.Split(s, "\n") {
		if ln = strings.TrimSpace(ln); ln != "" {
			if len(ln) > 200 {
				ln = strings.ToValidUTF8(ln[:200], "") + "…"
			}
			return ln
		}
	}
	return ""
}

// startTurnPoint makes the undo point of a user message: it records the
// conversation and list now and starts the workspace's snapshot in the
// background, for at most snapshotTimeout; an interrupt of the turn stops
// it (the point then keeps only the conversation). It returns the point,
// nil when undo is off.
func (a *Agent) startTurnPoint(ctx context.Context, prompt string) *undoPoint {
	cp := a.cfg.Checkpoints
	if cp == nil {
		return nil
	}
	a.mu.Lock()
	p := a.addPointLocked(PointTurn, "", firstLine(prompt), a.history, a.plan.List())
	p.prompt = prompt
	a.undo.turn = p
	a.mu.Unlock()
	sctx, cancel := context.WithTimeout(ctx, snapshotTimeout)
	go func() {
		defer cancel()
		saved, err := cp.Save(sctx, "before the message: "+p.text)
		a.mu.Lock()
		p.id, p.err, p.skip = saved.ID, err, saved.Skipped
		a.mu.Unlock()
		close(p.done)
	}()
	return p
}

// awaitTurnPoint waits, before a change, for the snapshot of the running
// turn's message, and tells the user when it failed or left files out.
// Only the first change of a turn waits.
func (l *loop) awaitTurnPoint(ctx context.Context) {
	a := l.a
	a.mu.Lock()
	p := a.undo.turn
	a.undo.turn = nil
	a.mu.Unlock()
	if p == nil {
		return
	}
	select {
	case <-p.done:
	default:
		l.emit(Notice{Text: "finishing the undo point of this message before the first change…", Transient: true})
	}
	if _, err := p.wait(ctx); err != nil {
		l.emit(Notice{Text: fmt.Sprintf("no undo point for this message: %v", err)})
		return
	}
	if len(p.skip) > 0 {
		l.emit(Notice{Text: "the undo point of this message leaves out " + skipList(p.skip)})
	}
}

// settleTurnPoint waits at the end of a turn for its message's snapshot
// (stopped already when the turn was interrupted), so that no snapshot
// outlives its turn and the point is complete when the turn is.
func (l *loop) settleTurnPoint(end TurnEnd) {
	a, p := l.a, l.point
	if p == nil {
		return
	}
	a.mu.Lock()
	told := a.undo.turn != p // a change waited for it, and said how it went
	if !told {
		a.undo.turn = nil
	}
	a.mu.Unlock()
	<-p.done
	if !told && p.err != nil && end.Reason != ReasonInterrupted {
		l.emit(Notice{Text: fmt.Sprintf("no undo point for this message: %v", p.err)})
	}
}

// lefter is what a checkpoint store offers to say which files its last
// staging left out; *checkpoint.Store implements it.
type lefter interface {
	Left() []checkpoint.Skip
}

// notKept lists the files going back to a point whose snapshot left out
// skip leaves as they are: those, and those the store's last look at the
// workspace left out (too large, special: a rewind neither deletes nor
// restores them), each once.
func (a *Agent) notKept(skip []checkpoint.Skip) []checkpoint.Skip {
	out := append([]checkpoint.Skip(nil), skip...)
	l, ok := a.cfg.Checkpoints.(lefter)
	if !ok {
		return out
	}
	seen := map[string]bool{}
	for _, k := range out {
		seen[k.Path] = true
	}
	for _, k := range l.Left() {
		if !seen[k.Path] {
			out, seen[k.Path] = append(out, k), true
		}
	}
	return out
}

// skipList names the files a snapshot left out, and why, for a notice.
func skipList(skips []checkpoint.Skip) string {
	parts := make([]string, len(skips))
	for i, k := range skips {
		parts[i] = k.String()
	}
	return strings.Join(parts, ", ")
}

// changesFiles reports whether a call of the tool name can change files:
// write_file, edit_file, bash, task (a subagent's changes merge back),
// and the extra tools (MCP), which tick cannot see into; none in plan
// mode, where they are refused or asked for one by one.
func (l *loop) changesFiles(name string) bool {
	if l.a.Mode() == ModePlan {
		return false
	}
	switch name {
	case "write_file", "edit_file", "bash", TaskTool:
		return true
	case TodoTool, "read_file":
		return false
	}
	for _, t := range l.extra {
		if t.Spec().Name == name {
			return true
		}
	}
	return false
}
