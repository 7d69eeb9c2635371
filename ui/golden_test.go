package ui

import (
	"github.com/tick-agent/tick/ui/status"

	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
)

// Golden-file tests of the rendered parts that matter: the todo panel and the
// status bar, with their styles (the approval dialog's: ui/dialog), beside the
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
