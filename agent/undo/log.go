package undo

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/tick-agent/tick/agent/checkpoint"
)

// Log is the undo points of one conversation, oldest first, and their
// state; see the package doc for what its lock guards and the lock order.
// The zero Log is empty and ready; a Log must not be copied after use.
type Log struct {
	mu     sync.Mutex
	points []*Point
	seq    int
	turn   *Point // the running turn's point, until a change waited for it
	gen    int    // bumped when a plan is put aside (Retire); a rewind sets it back
}

// Add keeps a new point made from p: it sets Seq and Gen (the Log's
// generation now), At when p has none, clips Hist's capacity and clones
// Todos, so the caller's slices stay its own. Past Max points, the oldest
// is dropped. The point's snapshot is pending until Finish.
func (l *Log) Add(p Point) *Point {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.addLocked(p)
}

// addLocked is Add with l.mu held.
func (l *Log) addLocked(p Point) *Point {
	l.seq++
	p.Seq, p.Gen = l.seq, l.gen
	if p.At.IsZero() {
		p.At = time.Now()
	}
	p.Hist = p.Hist[:len(p.Hist):len(p.Hist)]
	p.Todos = p.Todos.Clone()
	p.done, p.snap, p.after = make(chan struct{}), Snapshot{}, ""
	np := &p
	l.points = append(l.points, np)
	if n := len(l.points); n > Max {
		l.points = append([]*Point(nil), l.points[n-Max:]...)
	}
	return np
}

// AddTurn adds p (see Add) as the point of the running turn's message,
// until TakeTurn or EndTurn.
func (l *Log) AddTurn(p Point) *Point {
	l.mu.Lock()
	defer l.mu.Unlock()
	np := l.addLocked(p)
	l.turn = np
	return np
}

// AddItem adds p, an item's point (Kind Item), unless its item already has
// one in the current generation: an item's first start counts. It reports
// whether it added one; the check and the add are one step, so two tasks
// starting the same item make one point.
func (l *Log) AddItem(p Point) (*Point, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, q := range l.points {
		if q.IsItem(p.Item, l.gen) {
			return nil, false
		}
	}
	p.Kind = Item
	return l.addLocked(p), true
}

// Finish records the outcome of p's snapshot, c or err, and wakes its
// waiters. A point of an item or an apply whose snapshot failed is dropped
// (there is nothing to go back to); a message's point stays, for its
// conversation. Call it once per point.
func (l *Log) Finish(p *Point, c checkpoint.Checkpoint, err error) {
	p.snap = Snapshot{ID: c.ID, Err: err, Skipped: c.Skipped}
	if err != nil {
		p.snap.ID = ""
		if p.Kind != Turn {
			l.Drop(p)
		}
	}
	close(p.done)
}

// TakeTurn returns the running turn's point and forgets it (nil: none, or
// taken already): only the first change of a turn waits for it.
func (l *Log) TakeTurn() *Point {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.turn
	l.turn = nil
	return p
}

// EndTurn forgets p as the running turn's point at the end of its turn.
// It reports whether p was still waiting there, so that nobody (no
// TakeTurn) has reported how its snapshot went.
func (l *Log) EndTurn(p *Point) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.turn != p {
		return false
	}
	l.turn = nil
	return true
}

// SetAfter records id, the checkpoint taken just after the patch of p's
// item's task, so that undoing the item takes that patch alone back.
func (l *Log) SetAfter(p *Point, id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p.after = id
}

// After returns p's checkpoint after its task's patch ("": none).
func (l *Log) After(p *Point) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return p.after
}

// Drop removes p from the points (not there: nothing happens).
func (l *Log) Drop(p *Point) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i := slices.Index(l.points, p); i >= 0 {
		l.points = slices.Delete(slices.Clip(l.points), i, i+1)
	}
}

// Retire starts a new generation, when a plan is put aside: the item
// points made so far no longer answer for their ids (IsItem), which a
// later plan may reuse.
func (l *Log) Retire() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gen++
}

// Gen is the current generation (see Retire).
func (l *Log) Gen() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen
}

// Reset forgets every point, the running turn's and the generation, for
// another conversation: the Log is as new (sequence numbers start again).
func (l *Log) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.points, l.seq, l.turn, l.gen = nil, 0, nil, 0
}

// Points returns the points, oldest first (a copy of the list; the points
// are shared).
func (l *Log) Points() Points {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.points)
}

// Ready returns the points, oldest first, once their snapshots are done:
// those whose snapshot succeeded, and the messages' whose did not (ID ""),
// whose conversation can still be rewound. It waits for a snapshot still
// being taken, and returns ctx's error when ctx ends first. It blocks: see
// the package's lock order.
func (l *Log) Ready(ctx context.Context) (Points, error) {
	var out Points
	for _, p := range l.Points() {
		s, err := p.Wait(ctx)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if (err == nil && s.ID != "") || p.Kind == Turn {
			out = append(out, p)
		}
	}
	return out, nil
}
