package dialog

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/style"
)

// bigDiff is a /diff of one file whose hunks run to n lines.
func bigDiff(n int) DiffData {
	var p strings.Builder
	fmt.Fprintf(&p, "--- a/big.go\n+++ b/big.go\n@@ -1,%d +1,%d @@\n", n, n)
	for i := range n {
		fmt.Fprintf(&p, "+line %d of the file\n", i)
	}
	return DiffData{Since: "the session's start", Files: []DiffFile{{Kind: "changed", Path: "big.go", Patch: p.String()}}}
}

// TestDiffHunksFollowWidthAndPalette: the open file's hunks are drawn for
// the width and the palette of the frame, after either changes.
func TestDiffHunksFollowWidthAndPalette(t *testing.T) {
	dark, light := style.DefaultStyles(true), style.DefaultStyles(false)
	keys := style.DefaultKeyMap()
	d := NewDiff(keys.Diff, bigDiff(3))
	d.Update(Context{St: &dark, Keys: keys}, tea.KeyPressMsg{Code: tea.KeyEnter})
	view := func(st *style.Styles, w int) string {
		return strings.Join(d.View(Context{St: st, Keys: keys}, w, 20), "\n")
	}
	for _, c := range []struct {
		st *style.Styles
		w  int
	}{{&dark, 80}, {&dark, 40}, {&light, 40}, {&dark, 80}} {
		fresh := NewDiff(keys.Diff, bigDiff(3))
		fresh.Update(Context{St: c.st, Keys: keys}, tea.KeyPressMsg{Code: tea.KeyEnter})
		want := strings.Join(fresh.View(Context{St: c.st, Keys: keys}, c.w, 20), "\n")
		if got := view(c.st, c.w); got != want {
			t.Errorf("dark %v, %d cells: the open file drawn as\n%s\nwant\n%s", c.st.Dark, c.w, got, want)
		}
	}
}

// BenchmarkDiffFrame draws the /diff dialog with a 2,000-line file open:
// the cost of each frame while it is open (a turn's stream repaints it).
func BenchmarkDiffFrame(b *testing.B) {
	st := style.DefaultStyles(true)
	keys := style.DefaultKeyMap()
	c := Context{St: &st, Keys: keys}
	d := NewDiff(keys.Diff, bigDiff(2000))
	d.Update(c, tea.KeyPressMsg{Code: tea.KeyEnter})
	b.ReportAllocs()
	for b.Loop() {
		_ = d.View(c, 120, 30)
	}
}
