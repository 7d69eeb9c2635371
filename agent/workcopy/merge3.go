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

// maxMatchCells bounds the line matching of one merge: the lines left
// after the common head and tail are set aside, multiplied. A merge past
// it is refused (too different to merge), so that memory stays bounded.
const maxMatchCells = 4 << 20

// merge3 merges the changes from base to cur and from base to task, line
// by line: a hunk changed on one side only takes that side, one changed
// alike on both takes it once, and one changed differently is written
// between MarkCurrent, MarkSplit and MarkTask lines (cur's lines, then
// the task's). It returns the merged text and the number of conflicting
// hunks; ok is false when the texts are too different to match within
// maxMatchCells.
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
// matched with in a longest common subsequence (-1 when none); matches
// increase. ok is false past maxMatchCells.
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
	if len(mx)*len(my) > maxMatchCells {
		return nil, false
	}
	// l[i][j]: the longest common subsequence of mx[i:] and my[j:].
	cols := len(my) + 1
	l := make([]int32, (len(mx)+1)*cols)
	for i := len(mx) - 1; i >= 0; i-- {
		for j := len(my) - 1; j >= 0; j-- {
			switch {
			case mx[i] == my[j]:
				l[i*cols+j] = l[(i+1)*cols+j+1] + 1
			case l[(i+1)*cols+j] >= l[i*cols+j+1]:
				l[i*cols+j] = l[(i+1)*cols+j]
			default:
				l[i*cols+j] = l[i*cols+j+1]
			}
		}
	}
	for i, j := 0, 0; i < len(mx) && j < len(my); {
		switch {
		case mx[i] == my[j]:
			m[pre+i] = pre + j
			i, j = i+1, j+1
		case l[(i+1)*cols+j] >= l[i*cols+j+1]:
			i++
		default:
			j++
		}
	}
	return m, true
}

// IsBinary reports whether b looks like binary content: a NUL byte in its
// first 8000 bytes, as git decides.
func IsBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}
