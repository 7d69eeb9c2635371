package status

import (
	"github.com/tick-agent/tick/ui/style"
	"strconv"

	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestStatusBarNarrowKeepsCounts: as the bar narrows, the workspace, the
// token count, the sandbox's detail, the model and the elapsed time go
// first; the state, the mode, the key that interrupts and the counts of
// steering and queued messages stay.
func TestStatusBarNarrowKeepsCounts(t *testing.T) {
	st := style.DefaultStyles(true)
	bar := NewBar(&st)
	info := Info{
		Model: "gpt-4.1-mini", Workspace: "~/src/github.com/me/tick", Ctx: Context{Used: 12345}, Mode: "ask · sandbox: workspace-write",
		Running: true, Act: ActTool, Tool: "bash", Spin: "⠋", Elapsed: 83 * time.Second, Steering: 1, Queued: 2,
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
		t.Run(strconv.Itoa(tt.w), func(t *testing.T) {
			line := View(bar, info, tt.w)
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

// TestStatusBarExactWidth: at every width, with wide and narrow
// characters in its fields, the bar is exactly as wide as the screen (the
// bar counts the cells of what it writes instead of measuring the line).
func TestStatusBarExactWidth(t *testing.T) {
	st := style.DefaultStyles(true)
	bar := NewBar(&st)
	for _, info := range []Info{
		{Model: "gpt-4.1-mini", Workspace: "~/src/tick", Ctx: Context{Used: 31_000, Window: 128_000, CompactAt: 102_400}},
		{Model: "模型-大", Workspace: "~/项目/tick", Running: true, Act: ActTool, Tool: "読み込み", Spin: "⠋", Elapsed: time.Minute, Queued: 3, Mode: "ask · sandbox: workspace-write"},
		{Model: "m", Workspace: "~/w", Running: true, Act: ActAnswering, Spin: "⠙", Quiet: 20 * time.Second, Elapsed: time.Hour, Notice: "ctrl+c again to quit"},
	} {
		for w := 1; w <= 130; w++ {
			if n := ansi.StringWidth(View(bar, info, w)); n != w {
				t.Errorf("%q at width %d: the bar is %d cells wide", info.Model, w, n)
			}
		}
	}
}

// TestStatusBarCost: the session's cost sits beside the context share, is
// dropped before it when the bar is narrow, and an unknown cost ("")
// leaves no field behind.
func TestStatusBarCost(t *testing.T) {
	st := style.DefaultStyles(true)
	bar := NewBar(&st)
	info := Info{Model: "gpt-4.1-mini", Workspace: "~/w", Ctx: Context{Used: 31000, Window: 128000}, Cost: "$0.0042"}
	if s := ansi.Strip(View(bar, info, 120)); !strings.Contains(s, "24% · $0.0042") {
		t.Fatalf("the cost is not beside the share: %q", s)
	}
	narrow := ansi.Strip(View(bar, info, 40))
	if strings.Contains(narrow, "$") || !strings.Contains(narrow, "24%") {
		t.Fatalf("at 40 cells the cost should go before the share: %q", narrow)
	}
	info.Cost = ""
	if s := ansi.Strip(View(bar, info, 120)); strings.Contains(s, "$") || strings.Contains(s, "24% ·  ") {
		t.Fatalf("an unknown cost left a trace: %q", s)
	}
}
