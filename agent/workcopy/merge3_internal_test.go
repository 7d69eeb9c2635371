package workcopy

import (
	"math/rand"
	"testing"
)

// lcsLen is the length of a longest common subsequence of x and y, by
// the plain table.
func lcsLen(x, y []string) int {
	l := make([][]int, len(x)+1)
	for i := range l {
		l[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	return l[0][0]
}

// TestMatchIsALongestCommonSubsequence: on random line lists, match pairs
// equal lines, in increasing order, as many as a longest common
// subsequence has.
func TestMatchIsALongestCommonSubsequence(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	words := []string{"a\n", "b\n", "c\n", "d\n"}
	for n := 0; n < 2000; n++ {
		x := make([]string, r.Intn(12))
		y := make([]string, r.Intn(12))
		for i := range x {
			x[i] = words[r.Intn(len(words))]
		}
		for i := range y {
			y[i] = words[r.Intn(len(words))]
		}
		m, ok := match(x, y)
		if !ok {
			t.Fatalf("match(%q, %q) gave up", x, y)
		}
		got, last := 0, -1
		for i, j := range m {
			if j < 0 {
				continue
			}
			if j <= last || x[i] != y[j] {
				t.Fatalf("match(%q, %q) = %v: not increasing equal pairs", x, y, m)
			}
			got, last = got+1, j
		}
		if want := lcsLen(x, y); got != want {
			t.Fatalf("match(%q, %q) = %v: %d pairs, want %d", x, y, m, got, want)
		}
	}
}
