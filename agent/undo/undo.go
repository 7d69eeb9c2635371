// Package undo holds the undo points of one conversation: one for every
// user message, one for every todo item the first time it goes in
// progress, and one for every apply of a kept task. A point keeps the
// conversation and the todo list as they were and, once its snapshot is
// done, the checkpoint of the workspace taken for it (package checkpoint).
// The agent takes the snapshots, restores the files, the conversation and
// the list; this package keeps the points and their rules: which point an
// item or an undo answers to, which points an undo or a rewind makes stale,
// which applies of kept tasks they take back, and the cap on how many are
// kept (Max).
//
// # Contract
//
// A Log guards with its own mutex its points, their sequence numbers, the
// running turn's point (AddTurn, TakeTurn, EndTurn), the plan generation
// (Gen, Retire) and each point's After. A Point's exported fields are fixed
// once Add returns it (read them freely; Hist and Todos are shared, never
// change them). Its snapshot is written once by Log.Finish, before the
// point's done channel closes: read it through Wait, Done or Result, never
// before.
//
// Lock order: the Log never calls out while it holds its lock (no callback,
// no checkpoint store, no channel send, no other lock taken), so its lock
// is always the innermost. A caller may hold its own mutex (the agent's
// Agent.mu) when it calls any method of a Log or a Point except those that
// block on a snapshot: Point.Wait and Log.Ready wait for Finish, which the
// taker of the snapshot calls, so call them holding no lock that taker
// needs (in the agent: never under Agent.mu).
package undo

import (
	"context"
	"fmt"
	"time"

	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Kind says what made an undo point.
type Kind string

// The kinds of undo point.
const (
	Turn  Kind = "turn"  // a user message, before the model saw it
	Item  Kind = "item"  // a todo item, before it first went in progress
	Apply Kind = "apply" // the user applying a kept task's changes
)

// Max caps the points a Log keeps; the oldest go first.
const Max = 200

// Snapshot is the outcome of a point's snapshot of the workspace: the
// checkpoint (ID "" when it failed, with Err) and the files it left out.
type Snapshot struct {
	ID      string
	Err     error
	Skipped []checkpoint.Skip
}

// Point is one undo point. The exported fields are set by the caller
// (Kind, Item, Text, Prompt, At, Hist, Todos, Folded, Task) or by Add
// (Seq, Gen) and never change after Add; the snapshot is set once by
// Log.Finish.
type Point struct {
	Seq    int                // unique and increasing in its Log
	Kind   Kind               // what made it
	Item   string             // the item's id (Item)
	Text   string             // the prompt's first line, the item's text, or the apply's
	Prompt string             // the whole message (Turn), offered again by a rewind
	At     time.Time          // when it was made
	Hist   []provider.Message // the conversation before it; capacity clipped
	Todos  todo.List          // the list before it
	Folded int                // messages compactions had summarised out of Hist (the agent's count)
	Gen    int                // the Log's generation when it was made: the plan its item is of
	Task   int                // the kept task applied (Apply)

	done  chan struct{} // closed by Finish, after snap is set
	snap  Snapshot
	after string // the checkpoint just after a task's patch (Log.SetAfter); guarded by the Log's mu
}

// IsItem reports whether p is the point of item id ("": any item) of the
// plan of generation gen: an item point of a plan put aside since does not
// answer for its id, which a later plan may use for new work.
func (p *Point) IsItem(id string, gen int) bool {
	return p.Kind == Item && p.Gen == gen && (id == "" || p.Item == id)
}

// Wait returns the point's snapshot once it is done. The error is ctx's
// when ctx ends first, else the snapshot's own (Snapshot.Err). It blocks:
// see the package's lock order.
func (p *Point) Wait(ctx context.Context) (Snapshot, error) {
	select {
	case <-p.done:
		return p.snap, p.snap.Err
	case <-ctx.Done():
		return Snapshot{}, fmt.Errorf("wait for the undo point: %w", ctx.Err())
	}
}

// Done reports, without blocking, whether the point's snapshot is done.
func (p *Point) Done() bool {
	_, ok := p.Result()
	return ok
}

// Result returns the point's snapshot, without blocking; ok is false while
// it is being taken.
func (p *Point) Result() (Snapshot, bool) {
	select {
	case <-p.done:
		return p.snap, true
	default:
		return Snapshot{}, false
	}
}
