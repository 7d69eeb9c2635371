package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

func TestPanelLifecycle(t *testing.T) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"wide", 130, 30}, {"narrow", 80, 30}} {
		t.Run(size.name, func(t *testing.T) {
			m, a := newTestModel(t, size.w, size.h)
			submit(m, "do three things")
			if strings.Contains(screen(m), "Write tests") {
				t.Fatal("panel shown before any todo call")
			}

			events(t, m, agent.ToolStart{ID: "t1", Name: "todo"},
				agent.TodoUpdate{List: plan("Ship it", "> Write code", "p Write tests", "p Write docs")},
				agent.ToolEnd{ID: "t1", Name: "todo", Output: "ok"})
			s := screen(m)
			for _, want := range []string{"Ship it 0/3", "Write codeing", "Write tests", "Write docs", "Plan · 0/3 done"} {
				if !strings.Contains(s, want) {
					t.Fatalf("panel after first todo call lacks %q:\n%s", want, s)
				}
			}

			events(t, m, agent.TodoUpdate{List: plan("Ship it", "x Write code", "> Write tests", "p Write docs")})
			if s := screen(m); !strings.Contains(s, "Ship it 1/3") || !strings.Contains(s, "Write testsing") {
				t.Fatalf("panel did not update live:\n%s", s)
			}

			endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
			s = screen(m)
			if !strings.Contains(s, "Plan 1/3 · next: Write tests") {
				t.Fatalf("no summary line after turn end:\n%s", s)
			}
			if strings.Contains(s, "Write docs") {
				t.Fatalf("panel still expanded after turn end:\n%s", s)
			}

			press(m, "ctrl+t")
			if !strings.Contains(screen(m), "Write docs") {
				t.Fatalf("ctrl+t did not expand the panel:\n%s", screen(m))
			}
			press(m, "ctrl+t")
			if strings.Contains(screen(m), "Write docs") {
				t.Fatalf("second ctrl+t did not collapse the panel:\n%s", screen(m))
			}

			submit(m, "go on")
			if strings.Contains(screen(m), "Write docs") {
				t.Fatal("panel opened before the next todo call")
			}
			events(t, m, agent.TodoUpdate{List: plan("Ship it", "x Write code", "x Write tests", "> Write docs")})
			if !strings.Contains(screen(m), "Ship it 2/3") {
				t.Fatalf("panel did not reopen on the next todo call:\n%s", screen(m))
			}
			press(m, "ctrl+t")
			if strings.Contains(screen(m), "Ship it 2/3") {
				t.Fatalf("ctrl+t did not collapse the panel while running:\n%s", screen(m))
			}
			events(t, m, agent.TodoUpdate{List: plan("Ship it", "x Write code", "x Write tests", "x Write docs")})
			if strings.Contains(screen(m), "Ship it 3/3") {
				t.Fatal("a todo update reopened a panel the user collapsed in this turn")
			}
			endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
			if !strings.Contains(screen(m), "Plan 3/3 · all done") {
				t.Fatalf("summary of a finished plan:\n%s", screen(m))
			}
		})
	}
}

func TestPanelDisappearsWithoutList(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "hi")
	events(t, m, agent.TextDelta{Text: "hello"})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if s := screen(m); strings.Contains(s, "Plan") {
		t.Fatalf("a panel without a list is shown:\n%s", s)
	}
	press(m, "ctrl+t")
	if s := screen(m); strings.Contains(s, "Plan") {
		t.Fatalf("ctrl+t without a list shows a panel:\n%s", s)
	}
	// A list emptied by the model hides the panel too.
	submit(m, "plan")
	events(t, m, agent.TodoUpdate{List: plan("", "> A")})
	events(t, m, agent.TodoUpdate{List: todo.List{}})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if s := screen(m); strings.Contains(s, "Plan 0") {
		t.Fatalf("an empty list left a summary:\n%s", s)
	}
}

func TestPanelPosition(t *testing.T) {
	tests := []struct {
		name  string
		w     int
		right bool
	}{
		{"120 columns: right", 120, true},
		{"200 columns: right", 200, true},
		{"119 columns: above input", 119, false},
		{"60 columns: above input", 60, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newTestModel(t, tt.w, 24)
			submit(m, "x")
			events(t, m, agent.TodoUpdate{List: plan("Goal line", "> First step", "p Second step")})
			lines := strings.Split(screen(m), "\n")
			row := -1
			for i, l := range lines {
				if strings.Contains(l, "Goal line") {
					row = i
				}
			}
			if row < 0 {
				t.Fatalf("no panel title:\n%s", screen(m))
			}
			vrule := m.st.Glyphs.VRule
			onRight := strings.Contains(lines[row], " "+vrule+" Goal line")
			if onRight != tt.right {
				t.Fatalf("panel at right = %v, want %v:\n%s", onRight, tt.right, screen(m))
			}
			if !tt.right {
				// Above the input: the rule over the input comes after the panel.
				if !strings.HasPrefix(lines[row+3], m.st.Glyphs.Rule) {
					t.Fatalf("panel not right above the input:\n%s", screen(m))
				}
			}
		})
	}
}

func TestPanelItemStats(t *testing.T) {
	m, a := newTestModel(t, 130, 30)
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	m.clock = func() time.Time { return now }
	submit(m, "x")
	events(t, m, agent.TodoUpdate{List: plan("G", "> Build", "p Test")})
	for i := range 2 {
		now = now.Add(10 * time.Second)
		id := string(rune('a' + i))
		events(t, m, agent.ToolStart{ID: id, Name: "bash", Summary: "make"}, agent.ToolEnd{ID: id, Name: "bash"})
	}
	now = now.Add(45 * time.Second)
	l := plan("G", "x Build", "> Test")
	l.Items[0].Note = "binary built"
	events(t, m, agent.TodoUpdate{List: l})
	now = now.Add(3 * time.Second)
	events(t, m, agent.ToolStart{ID: "c", Name: "bash"})
	s := screen(m)
	for _, want := range []string{"1m05s · 2 calls", "binary built", "Testing", "3.0s · 1 call"} {
		if !strings.Contains(s, want) {
			t.Fatalf("panel lacks %q:\n%s", want, s)
		}
	}
	// The clock stops when the turn ends and resumes with the next one.
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	now = now.Add(time.Hour)
	press(m, "ctrl+t")
	if s := screen(m); !strings.Contains(s, "3.0s · 1 call") {
		t.Fatalf("clock ran while idle:\n%s", s)
	}
}

func stripAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = stripANSI(l)
	}
	return out
}
