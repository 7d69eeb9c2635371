package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
)

// TestStatusBarNarrowKeepsCounts: as the bar narrows, the workspace, the
// token count, the sandbox's detail, the model and the elapsed time go
// first; the state, the mode, the key that interrupts and the counts of
// steering and queued messages stay.
func TestStatusBarNarrowKeepsCounts(t *testing.T) {
	st := DefaultStyles(true)
	bar := newStatusStyles(&st)
	info := statusInfo{
		model: "gpt-4.1-mini", workspace: "~/src/github.com/me/tick", ctx: contextUse{used: 12345}, mode: "ask · sandbox: workspace-write",
		running: true, act: actTool, tool: "bash", spin: "⠋", elapsed: 83 * time.Second, steering: 1, queued: 2,
	}
	always := []string{"running bash", "ask", "1 steering", "2 queued", "esc"}
	tests := []struct {
		w          int
		want, lose []string
	}{
		{60, []string{"esc stops"}, []string{"~/", "tokens", "sandbox", "gpt-4.1-mini", "1m23s"}},
		{80, []string{"gpt-4.1-mini", "1m23s", "esc stops"}, []string{"~/", "tokens", "sandbox"}},
		{120, []string{"gpt-4.1-mini", "1m23s", "sandbox: workspace-write", "esc to interrupt"}, []string{"~/", "tokens"}},
	}
	for _, tt := range tests {
		t.Run(itoa(tt.w), func(t *testing.T) {
			line := statusView(bar, info, tt.w)
			if n := ansi.StringWidth(line); n != tt.w {
				t.Fatalf("the bar is %d cells wide, want %d", n, tt.w)
			}
			s := ansi.Strip(line)
			for _, want := range append(always, tt.want...) {
				if !strings.Contains(s, want) {
					t.Errorf("the bar at %d lacks %q: %q", tt.w, want, s)
				}
			}
			for _, lose := range tt.lose {
				if strings.Contains(s, lose) {
					t.Errorf("the bar at %d shows %q before what matters more: %q", tt.w, lose, s)
				}
			}
		})
	}
}

// TestStatusBarNarrowApp: in the app at 60 columns, a running turn with a
// steering message and a queued one shows both counts.
func TestStatusBarNarrowApp(t *testing.T) {
	m, _ := newTestModel(t, 60, 20)
	submit(m, "go")
	events(t, m, agent.ToolStart{ID: "1", Name: "write_file", Summary: "main.go"})
	submit(m, "also this")
	typeText(m, "then that")
	press(m, "tab")
	s := ansi.Strip(statusLine(m))
	for _, want := range []string{"running write_file", "1 steering", "1 queued", "esc"} {
		if !strings.Contains(s, want) {
			t.Errorf("the status bar at 60 lacks %q: %q", want, s)
		}
	}
}

// TestStatusBarExactWidth: at every width, with wide and narrow
// characters in its fields, the bar is exactly as wide as the screen (the
// bar counts the cells of what it writes instead of measuring the line).
func TestStatusBarExactWidth(t *testing.T) {
	st := DefaultStyles(true)
	bar := newStatusStyles(&st)
	for _, info := range []statusInfo{
		{model: "gpt-4.1-mini", workspace: "~/src/tick", ctx: contextUse{used: 31_000, window: 128_000, compactAt: 102_400}},
		{model: "模型-大", workspace: "~/项目/tick", running: true, act: actTool, tool: "読み込み", spin: "⠋", elapsed: time.Minute, queued: 3, mode: "ask · sandbox: workspace-write"},
		{model: "m", workspace: "~/w", running: true, act: actAnswering, spin: "⠙", quiet: 20 * time.Second, elapsed: time.Hour, notice: "ctrl+c again to quit"},
	} {
		for w := 1; w <= 130; w++ {
			if n := ansi.StringWidth(statusView(bar, info, w)); n != w {
				t.Errorf("%q at width %d: the bar is %d cells wide", info.model, w, n)
			}
		}
	}
}
