package dialog

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
)

// TestKeycapsCutInNarrowDialogs: a narrow dialog (30 columns; the item
// diff, whose keys take 46, 50) cuts lines
// that hold keycaps ("1️⃣") to its width, each ending in "…", so the box
// neither runs over its border nor loses the ellipsis to the frame's
// last cut. Seams: a task's transcript while tasks run, an item's diff
// from the plan editor, an approval's title.
func TestKeycapsCutInNarrowDialogs(t *testing.T) {
	kc := strings.Repeat("1\ufe0f\u20e3", 10)
	long := "step " + kc + " and more words that run on and on ZEND"
	now := time.Unix(1000, 0)
	c := pickerContext(now, true)
	c.Tasks = []Task{{ID: "t1", Desc: long, Row: true, Log: []string{long}}}
	q, _, _ := openApprovals(now, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: long, Detail: "ls"})
	for _, tt := range []struct {
		name string
		d    Dialog
		w    int
	}{
		{"a task's transcript", &TaskLog{id: "t1"}, 30},
		{"an item's diff", NewItemDiff(c.St, agent.ItemChanges{Item: "1", Text: long, Files: []checkpoint.Change{{Path: "x.go", Kind: checkpoint.Changed}},
			Patch: "@@ -1 +1 @@\n+" + long + "\n"}), 50},
		{"the approval", q, 30},
	} {
		w := tt.w
		view := tt.d.View(c, w, 20)
		found := 0
		for _, l := range view {
			if n := ansi.StringWidth(l); n > w {
				t.Errorf("%s: a line of %d cells in a box of %d: %q", tt.name, n, w, ansi.Strip(l))
			}
			if p := ansi.Strip(l); strings.Contains(p, "step ") {
				found++
				if !strings.Contains(p, "…") || strings.Contains(p, "ZEND") {
					t.Errorf("%s: a cut line without its ellipsis: %q", tt.name, p)
				}
			}
		}
		if found == 0 {
			t.Errorf("%s shows no line of the text:\n%s", tt.name, ansi.Strip(strings.Join(view, "\n")))
		}
	}
}
