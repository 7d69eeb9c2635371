package markdown

import (
	"strings"
	"testing"
)

// TestWideTableBounded: a "table" of 5,000 columns over 5,000 one-byte
// rows (40 KB) is drawn as the paragraph it then is, in lines of bounded
// size: every row got a cell for each column (25 million cells) and the
// columns' layout took time quadratic in their number (a stall shows as
// the test's timeout). A table of 64 columns is still a table.
func TestWideTableBounded(t *testing.T) {
	const cols = 5000
	md := strings.Repeat("|h", cols) + "|\n" + strings.Repeat("|-", cols) + "|\n" + strings.Repeat("x\n", cols)
	out := Render(md, 80, Dark)
	total := 0
	for _, l := range out {
		total += len(l)
	}
	if total > 4*len(md) {
		t.Errorf("%d bytes of Markdown drawn in %d bytes", len(md), total)
	}
	if got := strings.Count(strings.Join(out, "\n"), "x"); got != cols {
		t.Errorf("the rows' x drawn %d times, want %d", got, cols)
	}
	narrow := strings.Join(Render(strings.Repeat("|h", maxTableColumns)+"|\n"+strings.Repeat("|-", maxTableColumns)+"|\n|x|\n", 300, Dark), "\n")
	if strings.Contains(narrow, "|-|") || !strings.Contains(narrow, "x") {
		t.Errorf("a table of %d columns drawn %q, want a table", maxTableColumns, narrow)
	}
}
