package ui

import (
	"github.com/tick-agent/tick/ui/status"

	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/tick-agent/tick/todo"
)

// Golden-file tests of the rendered parts that matter: the todo panel and the
// status bar, with their styles (the approval dialog's: ui/dialog), beside the
// strings.Contains checks, so a layout change shows as a diff. Run
// `go test ./ui -run Golden -update` after a deliberate change and review
// the diff of testdata/.

// goldenT0 is the fixed clock of the golden tests.
var goldenT0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

// goldenPanel is a panel with a list in every state, its second item
// running for 75 s with 4 tool calls.
func goldenPanel() *panel {
	st := DefaultStyles(true)
	p := newPanel(&st)
	list := todo.List{Goal: "Make utils.py production-ready", Items: []todo.Item{
		{ID: "1", Text: "Add type hints", Status: todo.Completed, Note: "14 functions annotated"},
		{ID: "2", Text: "Add docstrings to every public function", Status: todo.InProgress, ActiveForm: "Adding docstrings"},
		{ID: "3", Text: "Add a main guard", Status: todo.Pending},
		{ID: "4", Text: "Add a CLI", Status: todo.Cancelled, Note: "not wanted"},
	}}
	p.turnStart(goldenT0)
	p.update(list, goldenT0)
	for range 4 {
		p.toolCall()
	}
	p.now = goldenT0.Add(75 * time.Second)
	return p
}

func TestGoldenPanel(t *testing.T) {
	tests := []struct {
		name string
		w, h int
	}{
		{"wide", 56, 12},
		{"narrow", 40, 12},
		{"short", 56, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden.RequireEqual(t, strings.Join(goldenPanel().view(tt.w, tt.h, "⠋"), "\n"))
		})
	}
	t.Run("summary", func(t *testing.T) {
		p := goldenPanel()
		p.turnEnd(p.now)
		golden.RequireEqual(t, p.summary(100))
	})
}

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
