package ui

import (
	"testing"

	"github.com/tick-agent/tick/agent"
)

// BenchmarkApprovalFrame draws a full 120×40 frame with an edit's
// approval open over a short session: the dialog's Context, its diff
// (wrapped once per width and palette) and its box, every frame.
func BenchmarkApprovalFrame(b *testing.B) {
	m := benchModel(b, 10)
	submit(m, "go")
	diff := "--- a/conf.txt\n+++ b/conf.txt\n@@ -1,3 +1,3 @@\n name = tick\n-port = 80\n+port = 8080\n debug = false\n"
	events(b, m, agent.ApprovalRequest{ID: "1", Tool: "edit_file", Summary: "conf.txt", Detail: diff, Reply: make(chan agent.Approval, 1)})
	if m.approvalQueue() == nil {
		b.Fatal("no approval dialog")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		m.paint.changed()
		m.draw()
	}
}
