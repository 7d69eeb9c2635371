package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/undo"
)

// Undo points (kept by package undo): every user message (Run) and every item that first goes in
// progress makes one, in the same checkpoint store (Config.Checkpoints).
// A message's snapshot is taken in the background, so the prompt goes to
// the model at once; the first tool call that can change a file (see
// changesFiles) waits for it, and so does the end of the turn, so a point
// is complete before anything it guards changes and no snapshot outlives
// its turn; an interrupt stops it (the point keeps its conversation). An
// item's snapshot is taken before its first change (the todo call that
// starts it, or the change that starts it automatically).

// PointKind says what made an undo point (see package undo).
type PointKind = undo.Kind

// The kinds of undo point.
const (
	PointTurn  = undo.Turn  // a user message, before the model saw it
	PointItem  = undo.Item  // a todo item, before it first went in progress
	PointApply = undo.Apply // the user applying a kept task's changes (ApplyTask)
)

// snapshotTimeout bounds the background snapshot of a user message.
const snapshotTimeout = 10 * time.Minute

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
func (a *Agent) startTurnPoint(ctx context.Context, prompt string) *undo.Point {
	cp := a.cfg.Checkpoints
	if cp == nil {
		return nil
	}
	a.mu.Lock()
	p := a.undo.AddTurn(undo.Point{Kind: PointTurn, Text: firstLine(prompt), Prompt: prompt,
		Hist: a.history, Todos: a.plan.List(), Folded: a.folded})
	a.mu.Unlock()
	sctx, cancel := context.WithTimeout(ctx, snapshotTimeout)
	go func() {
		defer cancel()
		saved, err := cp.Save(sctx, "before the message: "+p.Text)
		a.undo.Finish(p, saved, err)
	}()
	return p
}

// awaitTurnPoint waits, before a change, for the snapshot of the running
// turn's message, and tells the user when it failed or left files out.
// Only the first change of a turn waits.
func (l *loop) awaitTurnPoint(ctx context.Context) {
	p := l.a.undo.TakeTurn()
	if p == nil {
		return
	}
	if !p.Done() {
		l.emit(Notice{Text: "finishing the undo point of this message before the first change…", Transient: true})
	}
	s, err := p.Wait(ctx)
	if err != nil {
		l.emit(Notice{Text: fmt.Sprintf("no undo point for this message: %v", err)})
		return
	}
	if len(s.Skipped) > 0 {
		l.emit(Notice{Text: "the undo point of this message leaves out " + skipList(s.Skipped)})
	}
}

// settleTurnPoint waits at the end of a turn for its message's snapshot
// (stopped already when the turn was interrupted), so that no snapshot
// outlives its turn and the point is complete when the turn is.
func (l *loop) settleTurnPoint(end TurnEnd) {
	p := l.point
	if p == nil {
		return
	}
	told := !l.a.undo.EndTurn(p) // a change waited for it, and said how it went
	s, _ := p.Wait(context.Background())
	if !told && s.Err != nil && end.Reason != ReasonInterrupted {
		l.emit(Notice{Text: fmt.Sprintf("no undo point for this message: %v", s.Err)})
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
