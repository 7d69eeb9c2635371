package workcopy

import (
	"bytes"
	"strings"
)

// The conflict markers Merge writes around a hunk changed both in the
// workspace (current) and by the task.
const (
	MarkCurrent = "<<<<<<< current"
	MarkSplit   = "======="
	MarkTask    = ">>>>>>> task"
)

// maxMatchEdits bounds the line matching of one side of a merge: a
// side that needs more line edits than this (after the common head and
// tail are set aside) refuses the merge (too different to merge). The
// work is O((N+M)·D) time and O(D²) memory.
const maxMatchEdits = 1000

// merge3 merges the changes from base to cur and from base to task, line
// by line: a hunk changed on one side only takes that side, one changed
// alike on both takes it once, and one changed differently is written
// between MarkCurrent, MarkSplit and MarkTask lines (cur's lines, then
// the task's). It returns the merged text and the number of conflicting
// hunks; ok is false when a side is too different to match within
// maxMatchEdits.
func merge3(base, cur, task string) (out string, conflicts int, ok bool) {
	b, a, t := splitLines(base), splitLines(cur), splitLines(task)
	ma, ok1 := match(b, a)
	mt, ok2 := match(b, t)
	if !ok1 || !ok2 {
		return "", 0, false
	}
	var w strings.Builder
	i, x, y := 0, 0, 0 // base, cur, task
	for i < len(b) || x < len(a) || y < len(t) {
		if i < len(b) && ma[i] == x && mt[i] == y {
			w.WriteString(b[i])
			i, x, y = i+1, x+1, y+1
			continue
		}
		j := i // the next base line kept on both sides
		for j < len(b) && (ma[j] < 0 || mt[j] < 0) {
			j++
		}
		ea, et := len(a), len(t)
		if j < len(b) {
			ea, et = ma[j], mt[j]
		}
		ob, oa, ot := b[i:j], a[x:ea], t[y:et]
		switch {
		case same(oa, ob):
			writeLines(&w, ot)
		case same(ot, ob), same(oa, ot):
			writeLines(&w, oa)
		default:
			conflicts++
			writeConflict(&w, oa, ot)
		}
		i, x, y = j, ea, et
	}
	return w.String(), conflicts, true
}

// writeConflict writes one conflicting hunk with its markers.
func writeConflict(w *strings.Builder, cur, task []string) {
	w.WriteString(MarkCurrent + "\n")
	writeLines(w, cur)
	endLine(w)
	w.WriteString(MarkSplit + "\n")
	writeLines(w, task)
	endLine(w)
	w.WriteString(MarkTask + "\n")
}

// endLine ends what w holds with a newline unless it is empty or ends so.
func endLine(w *strings.Builder) {
	if s := w.String(); s != "" && !strings.HasSuffix(s, "\n") {
		w.WriteByte('\n')
	}
}

// writeLines writes lines as they are.
func writeLines(w *strings.Builder, lines []string) {
	for _, l := range lines {
		w.WriteString(l)
	}
}

// same reports whether two runs of lines are equal.
func same(x, y []string) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// splitLines splits s into lines that keep their "\n".
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// match returns, for each line of x, the index of the line of y it is
// matched with in a shortest edit script from x to y (Myers), -1 when it
// is removed; matches increase. ok is false past maxMatchEdits.
func match(x, y []string) ([]int, bool) {
	m := make([]int, len(x))
	for i := range m {
		m[i] = -1
	}
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		m[pre] = pre
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		m[len(x)-1-suf] = len(y) - 1 - suf
		suf++
	}
	mx, my := x[pre:len(x)-suf], y[pre:len(y)-suf]
	if len(mx) == 0 || len(my) == 0 {
		return m, true
	}
	trace, ok := myers(mx, my)
	if !ok {
		return nil, false
	}
	walkBack(trace, len(mx), len(my), func(i, j int) { m[pre+i] = pre + j })
	return m, true
}

// myers runs Myers' search for a shortest edit script from a to b and
// returns its trace: trace[d] is the furthest x on each diagonal k
// (index k+d) after d edits. ok is false past maxMatchEdits.
func myers(a, b []string) (trace [][]int32, ok bool) {
	n, m := len(a), len(b)
	limit := min(n+m, maxMatchEdits)
	prev := []int32{0, 0} // d = -1: v[1] = 0 starts the snake at (0, 0)
	for d := 0; d <= limit; d++ {
		v := make([]int32, 2*d+1)
		for k := -d; k <= d; k += 2 {
			var x int
			switch {
			case k == -d || (k != d && at(prev, d-1, k-1) < at(prev, d-1, k+1)):
				x = at(prev, d-1, k+1) // down: an insertion
			default:
				x = at(prev, d-1, k-1) + 1 // right: a removal
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[k+d] = int32(x)
			if x >= n && y >= m {
				return append(trace, v), true
			}
		}
		trace, prev = append(trace, v), v
	}
	return nil, false
}

// at reads diagonal k of a trace row of step d (-1: the start).
func at(v []int32, d, k int) int {
	if d < 0 {
		return 0
	}
	return int(v[k+d])
}

// walkBack follows trace back from (n, m) to (0, 0) and calls keep for
// every pair of lines the script keeps.
func walkBack(trace [][]int32, n, m int, keep func(i, j int)) {
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		k := x - y
		var pk int
		switch {
		case d == 0:
			pk = 0
		case k == -d || (k != d && at(trace[d-1], d-1, k-1) < at(trace[d-1], d-1, k+1)):
			pk = k + 1
		default:
			pk = k - 1
		}
		px := 0
		if d > 0 {
			px = at(trace[d-1], d-1, pk)
		}
		py := px - pk
		if d > 0 { // the edit's own step: down from pk+... or right
			if pk == k+1 {
				py++ // after the insertion
			} else {
				px++ // after the removal
			}
		}
		for x > px && y > py {
			x, y = x-1, y-1
			keep(x, y)
		}
		if d > 0 {
			x, y = at(trace[d-1], d-1, pk), at(trace[d-1], d-1, pk)-pk
		}
	}
}

// IsBinary reports whether b looks like binary content: a NUL byte in its
// first 8000 bytes, as git decides.
func IsBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}
