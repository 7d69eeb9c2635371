package style_test

import (
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
		old = append(old, "line "+style.Itoa(i))
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
			t.Run(name+"_"+style.Itoa(w), func(t *testing.T) {
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
