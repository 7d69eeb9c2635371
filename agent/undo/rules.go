package undo

import (
	"slices"
	"strconv"
)

// The rules of going back: which point an undo answers to, which points an
// undo or a rewind makes stale, and which applies of kept tasks it takes
// back (so that the agent can offer them again).

// Target returns the point an undo of item id goes back to: the item's
// point in the current generation, or for id "" the last point of an item
// or of an apply. ok is false when there is none.
func (l *Log) Target(id string) (p *Point, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, q := range l.points {
		if q.IsItem(id, l.gen) || (id == "" && q.Kind == Apply) {
			p = q
		}
	}
	return p, p != nil
}

// Later returns the points made after p, oldest first.
func (l *Log) Later(p *Point) Points {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out Points
	for _, q := range l.points {
		if q.Seq > p.Seq {
			out = append(out, q)
		}
	}
	return out
}

// ItemsFrom lists the items whose points are p or later, in order; an id
// that has points in several generations comes once for each.
func (l *Log) ItemsFrom(p *Point) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []string
	for _, q := range l.points {
		if q.Seq >= p.Seq && q.Kind == Item {
			ids = append(ids, q.Item)
		}
	}
	return ids
}

// TakeBack drops the points an undo to p makes stale: p alone (alone, a
// task's item whose patch alone goes back), else p and every later point.
// It returns the kept tasks whose applies it took back (Apply points; none
// when alone).
func (l *Log) TakeBack(p *Point, alone bool) (unapplied []int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if alone {
		if i := slices.Index(l.points, p); i >= 0 {
			l.points = slices.Delete(slices.Clip(l.points), i, i+1)
		}
		return nil
	}
	keep := l.points[:0:0]
	for _, q := range l.points {
		switch {
		case q.Seq < p.Seq:
			keep = append(keep, q)
		case q.Kind == Apply:
			unapplied = append(unapplied, q.Task)
		}
	}
	l.points = keep
	return unapplied
}

// RewindTo drops the points a rewind to p makes stale and sets the
// generation back to p's when the conversation goes back. files and conv
// say what goes back (the workspace, the conversation and list). p and
// the points after it go, but when only the files go back the later
// messages' points stay: their conversation is still there to go back to.
// It returns the kept tasks whose applies the files going back took back
// (Apply points from p on; none when the files stay).
func (l *Log) RewindTo(p *Point, files, conv bool) (unapplied []int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if conv {
		l.gen = p.Gen
	}
	keep := l.points[:0:0]
	for _, q := range l.points {
		if files && q.Seq >= p.Seq && q.Kind == Apply {
			unapplied = append(unapplied, q.Task)
		}
		if q.Seq < p.Seq || (!conv && q.Kind == Turn && q.Seq > p.Seq) {
			keep = append(keep, q)
		}
	}
	l.points = keep
	return unapplied
}

// Points is a list of points, oldest first, as Points and Ready return.
type Points []*Point

// Find returns the point whose Seq is id in decimal (nil: none).
func (ps Points) Find(id string) *Point {
	for _, p := range ps {
		if strconv.Itoa(p.Seq) == id {
			return p
		}
	}
	return nil
}

// ItemIndex returns the index of the first point of item id of generation
// gen (see Point.IsItem), -1 when there is none.
func (ps Points) ItemIndex(id string, gen int) int {
	return slices.IndexFunc(ps, func(p *Point) bool { return p.IsItem(id, gen) })
}

// TurnIndex returns the index of the n-th message's point (1 is the
// first), -1 when there are fewer, and how many there are.
func (ps Points) TurnIndex(n int) (i, turns int) {
	i = -1
	for j, p := range ps {
		if p.Kind == Turn {
			if turns++; turns == n {
				i = j
			}
		}
	}
	return i, turns
}
