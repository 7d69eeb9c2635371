package style_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/ui/style"
)

// goldenDiff is a change with two hunks, a line too long for 80 columns,
// a tab, a control sequence from the file, and a last line without a
// newline.
func goldenDiff() string {
	var old, new []string
	for i := 1; i <= 30; i++ {
		old = append(old, "line "+strconv.Itoa(i))
	}
	new = append(new, old...)
	new[2] = "line 3 changed\twith a tab and \x1b[31mred\x1b[m from the file"
	new = append(new[:20], append([]string{"an added line that is long enough to wrap at eighty columns: " + strings.Repeat("word ", 12)}, new[20:]...)...)
	return tools.UnifiedDiff("a/f.txt", "b/f.txt", strings.Join(old, "\n")+"\n", strings.Join(new, "\n"))
}

func TestGoldenDiffLines(t *testing.T) {
	st := style.DefaultStyles(true)
	newFile := tools.UnifiedDiff("/dev/null", "b/new.go", "", "package main\n\nfunc main() {}\n")
	for _, w := range []int{80, 120} {
		for name, d := range map[string]string{"edit": goldenDiff(), "new": newFile} {
			t.Run(name+"_"+strconv.Itoa(w), func(t *testing.T) {
				lines := style.DiffLines(&st, d, w)
				for _, l := range lines {
					if ansi.StringWidth(l) > w {
						t.Errorf("line wider than %d: %q", w, l)
					}
					if strings.Contains(ansi.Strip(l), "\x1b") {
						t.Errorf("a control sequence reached the screen: %q", l)
					}
				}
				golden.RequireEqual(t, strings.Join(lines, "\n"))
			})
		}
	}
}

// TestDiffLinesReadWithoutColour checks the signs and numbers carry the
// change when colours are stripped.
func TestDiffLinesReadWithoutColour(t *testing.T) {
	st := style.DefaultStyles(true)
	d := tools.UnifiedDiff("a/x", "b/x", "a\nb\nc\n", "a\nB\nc\n")
	got := ansi.Strip(strings.Join(style.DiffLines(&st, d, 40), "\n"))
	want := "1   a\n2 - b\n2 + B\n3   c"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDiffLinesNotADiff draws other text (a command) as it is.
func TestDiffLinesNotADiff(t *testing.T) {
	st := style.DefaultStyles(true)
	got := ansi.Strip(strings.Join(style.DiffLines(&st, "rm -rf build\n", 40), "\n"))
	if got != "rm -rf build" {
		t.Fatalf("got %q", got)
	}
}

// BenchmarkDiffLines draws the diff of 200 changes in a 20,000-line file
// (the size a chat edit is bounded to, 64 KiB, and more) at 120 columns.
func BenchmarkDiffLines(b *testing.B) {
	for _, n := range []int{-1, 8} {
		b.Run("first_"+strconv.Itoa(n), func(b *testing.B) { benchDiffLines(b, n) })
	}
}

// benchDiffLines draws the first n lines (all for -1).
func benchDiffLines(b *testing.B, n int) {
	var old, new strings.Builder
	for i := range 20000 {
		l := "line " + strconv.Itoa(i) + " of the file, long enough to look like code\n"
		old.WriteString(l)
		if i%100 == 0 {
			l = "changed " + l
		}
		new.WriteString(l)
	}
	d := tools.UnifiedDiff("a/f", "b/f", old.String(), new.String())
	st := style.DefaultStyles(true)
	b.SetBytes(int64(len(d)))
	b.ResetTimer()
	for range b.N {
		style.DiffLinesUpTo(&st, d, 120, n)
	}
}

// TestDiffLinesUpTo: drawing the first n lines counts the rest as
// DiffLines would draw them.
func TestDiffLinesUpTo(t *testing.T) {
	st := style.DefaultStyles(true)
	for _, w := range []int{40, 80, 120} {
		all := style.DiffLines(&st, goldenDiff(), w)
		for _, n := range []int{0, 3, 8, len(all), len(all) + 5} {
			got, more := style.DiffLinesUpTo(&st, goldenDiff(), w, n)
			if len(got) != min(n, len(all)) || len(got)+more != len(all) {
				t.Errorf("w %d n %d: %d lines and %d more, want %d in all", w, n, len(got), more, len(all))
			}
		}
	}
}
