package tools

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{name: "equal", old: "a\nb\n", new: "a\nb\n", want: ""},
		{name: "small change",
			old:  "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
			new:  "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			want: "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{name: "new file", old: "", new: "x\ny\n",
			want: "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{name: "file emptied", old: "x\ny\n", new: "",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-x\n-y\n"},
		{name: "insert at the top", old: "a\nb\n", new: "new\na\nb\n",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n+new\n a\n b\n"},
		{name: "newline added at the end", old: "a\nb", new: "a\nb\n",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{name: "two hunks",
			old:  "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
			new:  "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n",
			want: "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n"},
		{name: "close changes share a hunk",
			old:  "1\n2\n3\n4\n5\n6\n7\n8\n",
			new:  "one\n2\n3\n4\n5\n6\n7\neight\n",
			want: "--- a/f\n+++ b/f\n@@ -1,8 +1,8 @@\n-1\n+one\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+eight\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := UnifiedDiff("a/f", "b/f", tt.old, tt.new)
			if got != tt.want {
				t.Errorf("UnifiedDiff =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

var hunkRE = regexp.MustCompile(`^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$`)

// applyDiff applies a unified diff made by UnifiedDiff to old, checking
// every context and removed line and every hunk header.
func applyDiff(t *testing.T, old, diff string) string {
	t.Helper()
	a := splitLinesKeep(old)
	lines := strings.SplitAfter(diff, "\n")
	lines = lines[2 : len(lines)-1] // drop the header and the final ""
	var out []string
	pos := 0 // lines of a consumed
	for i := 0; i < len(lines); {
		m := hunkRE.FindStringSubmatch(strings.TrimSuffix(lines[i], "\n"))
		if m == nil {
			t.Fatalf("bad hunk header %q in\n%s", lines[i], diff)
		}
		aStart, _ := strconv.Atoi(m[1])
		aLen, _ := strconv.Atoi(m[2])
		bStart, _ := strconv.Atoi(m[3])
		bLen, _ := strconv.Atoi(m[4])
		if aLen > 0 {
			aStart--
		}
		if aStart < pos {
			t.Fatalf("hunks overlap in\n%s", diff)
		}
		out = append(out, a[pos:aStart]...)
		pos = aStart
		if want := len(out) + 1; bLen > 0 && bStart != want || bLen == 0 && bStart != want-1 {
			t.Fatalf("hunk %q: new start %d, want %d", lines[i], bStart, want)
		}
		i++
		gotA, gotB := 0, 0
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			noEOL := i < len(lines) && lines[i] == "\\ No newline at end of file\n"
			if noEOL {
				i++
				l = strings.TrimSuffix(l, "\n")
			}
			switch l[0] {
			case ' ', '-':
				if a[pos] != l[1:] {
					t.Fatalf("line %d: diff has %q, old has %q", pos+1, l[1:], a[pos])
				}
				pos++
				gotA++
				if l[0] == ' ' {
					out = append(out, l[1:])
					gotB++
				}
			case '+':
				out = append(out, l[1:])
				gotB++
			default:
				t.Fatalf("bad diff line %q", l)
			}
		}
		if gotA != aLen || gotB != bLen {
			t.Fatalf("hunk counts %d,%d but has %d,%d lines", aLen, bLen, gotA, gotB)
		}
	}
	out = append(out, a[pos:]...)
	return strings.Join(out, "")
}

// lcsLen is the length of the longest common subsequence of a and b.
func lcsLen(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// randomText makes up to n lines from a small alphabet, so that lines
// repeat, sometimes without a final newline.
func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	k := r.IntN(n + 1)
	for i := 0; i < k; i++ {
		fmt.Fprintf(&b, "%c\n", 'a'+r.IntN(4))
	}
	s := b.String()
	if s != "" && r.IntN(4) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}

// mutate changes a few lines of s.
func mutate(r *rand.Rand, s string) string {
	lines := splitLinesKeep(s)
	for range r.IntN(4) + 1 {
		switch op := r.IntN(3); {
		case op == 0 && len(lines) > 0:
			i := r.IntN(len(lines))
			lines = append(lines[:i], lines[i+1:]...)
		case op == 1:
			i := r.IntN(len(lines) + 1)
			lines = append(lines[:i], append([]string{fmt.Sprintf("%c\n", 'a'+r.IntN(5))}, lines[i:]...)...)
		case len(lines) > 0:
			lines[r.IntN(len(lines))] = "changed\n"
		}
	}
	return strings.Join(lines, "")
}

func TestUnifiedDiffRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		old := randomText(r, 30)
		new := randomText(r, 30)
		if i%2 == 0 {
			new = mutate(r, old)
		}
		d := UnifiedDiff("a/f", "b/f", old, new)
		if old == new {
			if d != "" {
				t.Fatalf("diff of equal texts is %q", d)
			}
			continue
		}
		if got := applyDiff(t, old, d); got != new {
			t.Fatalf("case %d: applying\n%s\nto %q gives %q, want %q", i, d, old, got, new)
		}
		// Myers gives a shortest script: as many changes as the LCS allows.
		a, b := splitLinesKeep(old), splitLinesKeep(new)
		changes := 0
		for _, l := range strings.Split(d, "\n")[2:] {
			if strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") {
				changes++
			}
		}
		if want := len(a) + len(b) - 2*lcsLen(a, b); changes != want {
			t.Fatalf("case %d: %d changed lines, the shortest script has %d:\n%s", i, changes, want, d)
		}
	}
}

func TestUnifiedDiffTooLarge(t *testing.T) {
	var a, b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&a, "old %d\n", i)
		fmt.Fprintf(&b, "new %d\n", i)
	}
	got := UnifiedDiff("a/f", "b/f", "same\n"+a.String(), "same\n"+b.String())
	want := "--- a/f\n+++ b/f\n(file too large to diff: 3000 lines of the old file (from line 2) replaced by 3000 lines)\n"
	if got != want {
		t.Errorf("UnifiedDiff = %q, want %q", got, want)
	}
}

func ExampleUnifiedDiff() {
	old := "package main\n// main greets.\nfunc main() {\n\tprintln(\"hello\")\n}\n"
	new := "package main\n// main greets.\nfunc main() {\n\tprintln(\"hello, world\")\n}\n"
	fmt.Print(UnifiedDiff("a/main.go", "b/main.go", old, new))
	// Output:
	// --- a/main.go
	// +++ b/main.go
	// @@ -1,5 +1,5 @@
	//  package main
	//  // main greets.
	//  func main() {
	// -	println("hello")
	// +	println("hello, world")
	//  }
}

func BenchmarkUnifiedDiff(b *testing.B) {
	var old, new strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&old, "line %d\n", i)
		if i%100 == 0 {
			fmt.Fprintf(&new, "changed %d\n", i)
		} else {
			fmt.Fprintf(&new, "line %d\n", i)
		}
	}
	o, n := old.String(), new.String()
	for b.Loop() {
		UnifiedDiff("a/f", "b/f", o, n)
	}
}
