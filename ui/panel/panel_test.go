package panel

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/style"
)

// The panel's own tests (moved from the root with the panel): the golden
// panel, its glyphs and widths, and the line count layout relies on. The
// panel in the app is tested in the root (panel_test.go, view_test.go).

// goldenT0 is the fixed clock of the golden tests.
var goldenT0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

// goldenPanel is a panel with a list in every state, its second item
// running for 75 s with 4 tool calls.
func goldenPanel() *Model {
	st := style.DefaultStyles(true)
	p := New(&st)
	list := todo.List{Goal: "Make utils.py production-ready", Items: []todo.Item{
		{ID: "1", Text: "Add type hints", Status: todo.Completed, Note: "14 functions annotated"},
		{ID: "2", Text: "Add docstrings to every public function", Status: todo.InProgress, ActiveForm: "Adding docstrings"},
		{ID: "3", Text: "Add a main guard", Status: todo.Pending},
		{ID: "4", Text: "Add a CLI", Status: todo.Cancelled, Note: "not wanted"},
	}}
	p.TurnStart(goldenT0)
	p.SetList(list, goldenT0)
	for range 4 {
		p.ToolCall()
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
			golden.RequireEqual(t, strings.Join(goldenPanel().View(tt.w, tt.h, "⠋"), "\n"))
		})
	}
	t.Run("summary", func(t *testing.T) {
		p := goldenPanel()
		p.TurnEnd(p.now)
		golden.RequireEqual(t, p.Summary(100))
	})
}

func TestPanelGlyphsAndLongLists(t *testing.T) {
	st := style.DefaultStyles(true)
	p := New(&st)
	l := plan("A goal", "x Done one", "- Dropped", "> Running", "p Waiting")
	p.SetList(l, time.Now())
	lines := p.View(40, 20, "*")
	got := stripAll(lines)
	want := []string{"A goal 1/3", "✓ Done one", "✗ Dropped (not needed)", "○ Runninging", "○ Waiting"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if strings.TrimSpace(got[i]) != want[i] {
			t.Errorf("line %d = %q, want %q", i, got[i], want[i])
		}
	}
	if !strings.Contains(lines[2], ";9m") { // strikethrough on the cancelled item
		t.Errorf("cancelled item not struck through: %q", lines[2])
	}

	// Every line keeps to the width, meta included.
	now := time.Now()
	p.running = true
	p.SetList(plan("A goal", "x Done one", "> Looking around the workspace carefully", "p Waiting"), now)
	p.ToolCall()
	p.now = now.Add(2800 * time.Millisecond)
	for w := 10; w <= 60; w++ {
		for _, l := range p.View(w, 20, "*") {
			if n := stripWidth(l); n > w {
				t.Fatalf("width %d: line is %d wide: %q", w, n, stripANSI(l))
			}
		}
	}
	// At 40 columns the running item's text wraps whole onto a second line,
	// which ends with its elapsed time.
	got = stripAll(p.View(40, 20, "*"))
	if len(got) < 4 || got[2] != "* Looking around the workspace" || !strings.HasPrefix(got[3], "  carefullying ") || !strings.HasSuffix(got[3], "2.8s · 1 call") {
		t.Errorf("running item at width 40: %q", got)
	}

	var items []string
	for i := range 20 {
		s := "p Step " + string(rune('A'+i))
		if i == 15 {
			s = "> Step " + string(rune('A'+i))
		}
		items = append(items, s)
	}
	p.SetList(plan("Long", items...), time.Now())
	for _, h := range []int{1, 2, 3, 5, 8} {
		got := stripAll(p.View(40, h, "*"))
		if len(got) > h {
			t.Fatalf("h=%d: %d lines", h, len(got))
		}
		if h >= 4 && !strings.Contains(strings.Join(got, "\n"), "Step P") {
			t.Errorf("h=%d: running item not in view: %q", h, got)
		}
	}
}

// TestPanelLineCount: the unstyled count layout uses matches the lines the
// full form draws, at every width.
func TestPanelLineCount(t *testing.T) {
	st := style.DefaultStyles(true)
	p := New(&st)
	p.running = true
	now := time.Now()
	p.SetList(tourPlan(), now)
	p.ToolCall()
	p.now = now.Add(2 * time.Second)
	for w := 1; w <= 130; w++ {
		if got, want := p.LineCount(w), len(p.lines(w, "*", true)); got != want {
			t.Fatalf("width %d: lineCount %d, drawn %d lines", w, got, want)
		}
	}
}
