package dialog

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
)

// TestApprovalHostileRequestDrawnSafe: every text of an approval request
// (tool name, question, summary, command, edit diff, scope, task name)
// holding escape sequences, C1 controls, NUL, a bidi override, invalid
// UTF-8 and wide and zero-width runes is drawn at every size from 0x0 to
// 30x8 (a 20x5 terminal among them) with no control sequence but SGR
// colours: the title drew the tool's name and the question as they came
// (an OSC setting the window title, a screen clear), the key to allow
// for the session and the chat's note of it drew the tool's name so too.
func TestApprovalHostileRequestDrawnSafe(t *testing.T) {
	unsafe := regexp.MustCompile("\x1b[^\\[]|\x1b\\[[0-9;:]*[^0-9;:m]|[\x00-\x08\x0b-\x1a\x7f\u0080-\u009f\u202e]")
	hostile := "a\x1b]0;T\x07b\x1b[2Jc\x9bd\u202ee\x00f\r\ng\tz界\u200d\xff"
	diff := "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-" + hostile + "\n+" + strings.Repeat(hostile, 50) + "\n"
	reqs := []agent.ApprovalRequest{
		{Tool: "bash" + hostile, Summary: hostile, Detail: strings.Repeat(hostile+"\n", 30), Scope: hostile, TaskName: hostile},
		{Tool: "edit" + hostile, Rerun: true, Summary: hostile, Detail: hostile},
		{Tool: "edit", Question: "Q" + hostile, Summary: "edit x", Detail: diff},
		{Tool: "write", Summary: "w", Detail: "--- a/b\n+++ b/b\n@@ -0,0 +1 @@\n+" + strings.Repeat("\x00\x01\xff\xfe\x1b[31m", 3000) + "\n"},
	}
	start := time.Unix(1000, 0)
	for i, r := range reqs {
		q, _, c := openApprovals(start, r)
		for w := 0; w <= 30; w++ {
			for h := 0; h <= 8; h++ {
				for _, l := range q.View(c, w, h) {
					if unsafe.MatchString(l) {
						t.Fatalf("request %d at %dx%d: a control sequence drawn in %q", i, w, h, l)
					}
				}
			}
		}
	}
}
