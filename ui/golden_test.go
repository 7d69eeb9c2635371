package ui

import (
	"github.com/tick-agent/tick/ui/status"

	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/tick-agent/tick/agent"
)

// Golden-file tests of the rendered parts that matter: the todo panel, the
// status bar and the approval dialog, with their styles, beside the
// strings.Contains checks, so a layout change shows as a diff. Run
// `go test ./ui -run Golden -update` after a deliberate change and review
// the diff of testdata/.

// goldenT0 is the fixed clock of the golden tests.
var goldenT0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

func TestGoldenStatusBar(t *testing.T) {
	st := DefaultStyles(true)
	bar := status.NewBar(&st)
	base := status.Info{Model: "gpt-4.1-mini", Workspace: "~/src/tick", Ctx: status.Context{Used: 12345}}
	running := base
	running.Running, running.Act, running.Tool, running.Spin, running.Elapsed = true, status.ActTool, "bash", "⠋", 83*time.Second
	running.Queued, running.Steering = 1, 2
	estimated := base
	estimated.Ctx.Estimated, estimated.Notice = true, "ctrl+c again to quit"
	tests := []struct {
		name string
		info status.Info
		w    int
	}{
		{"idle", base, 120},
		{"running", running, 120},
		{"running-narrow", running, 60},
		{"notice", estimated, 80},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden.RequireEqual(t, status.View(bar, tt.info, tt.w))
		})
	}
}

func TestGoldenDialog(t *testing.T) {
	st := DefaultStyles(true)
	keys := DefaultKeyMap()
	long := "go test ./... && " + strings.Repeat("echo a long command that wraps; ", 12) + "rm -rf ./build"
	diff := "--- a/utils.py\n+++ b/utils.py\n@@ -1,3 +1,4 @@\n def f(x):\n-    return x\n+    \"\"\"Return x.\"\"\"\n+    return x\n"
	tests := []struct {
		name string
		req  agent.ApprovalRequest
		w, h int
	}{
		{"bash", agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "go test ./...", Detail: "go test ./...", Scope: "go test …"}, 80, 20},
		{"bash-long-small", agent.ApprovalRequest{ID: "2", Tool: "bash", Summary: long, Detail: long, Scope: "go test …"}, 60, 14},
		{"edit", agent.ApprovalRequest{ID: "3", Tool: "edit_file", Summary: "utils.py", Detail: diff}, 80, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApproval(&st, tt.req, goldenT0)
			golden.RequireEqual(t, strings.Join(a.view(&st, keys, tt.w, tt.h), "\n"))
		})
	}
}
