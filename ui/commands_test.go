package ui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
)

func TestStartupNotices(t *testing.T) {
	hist := []provider.Message{
		{Role: provider.RoleUser, Content: "fix the bug"},
		{Role: provider.RoleAssistant, Content: "Fixed it."},
	}
	tests := []struct {
		name    string
		history []provider.Message
		notices []string
		want    []string // in this order on screen
		absent  string
	}{
		{
			name:    "after the restored transcript",
			history: hist,
			notices: []string{"resumed session abc123 · 2 messages", "ignored a truncated last line (17 bytes)"},
			want:    []string{"› fix the bug", "Fixed it.", "resumed session abc123 · 2 messages", "ignored a truncated last line"},
			absent:  "resumed session · 2 messages",
		},
		{
			name:    "after the welcome line",
			notices: []string{"not saving this session"},
			want:    []string{"Welcome to tick", "not saving this session"},
		},
		{
			name:    "generic line without notices",
			history: hist,
			want:    []string{"› fix the bug", "resumed session · 2 messages"},
			absent:  "Welcome",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mv := New(Config{Agent: &scriptAgent{}, History: agent.Replay(tt.history), Notices: tt.notices})
			m := &mv
			update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
			s := screen(m)
			at := -1
			for _, w := range tt.want {
				i := strings.Index(s, w)
				if i <= at {
					t.Fatalf("%q missing or out of order:\n%s", w, s)
				}
				at = i
			}
			if tt.absent != "" && strings.Contains(s, tt.absent) {
				t.Fatalf("screen shows %q:\n%s", tt.absent, s)
			}
		})
	}
}

func TestCompactCommand(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "first")
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})

	if cmd := submit(m, "/compact"); cmd == nil || a.compactions() != 1 {
		t.Fatalf("/compact did not start a compaction (cmd %v, %d calls)", cmd != nil, a.compactions())
	}
	s := screen(m)
	if st := lastLine(s); !strings.Contains(st, "compacting") || !strings.Contains(st, "esc to interrupt") {
		t.Fatalf("status bar while compacting: %s", st)
	}
	if !strings.Contains(s, placeholderCompacting) {
		t.Fatalf("input placeholder while compacting:\n%s", s)
	}
	if strings.Contains(s, "› /compact") {
		t.Fatalf("/compact shown as a prompt:\n%s", s)
	}

	submit(m, "next thing") // enter queues: no model turn takes a steer
	if len(a.steers) != 0 {
		t.Fatalf("enter steered a compaction: %q", a.steers)
	}
	if s := screen(m); !strings.Contains(s, "queued: next thing") {
		t.Fatalf("text typed while compacting not queued:\n%s", s)
	}

	events(t, m, agent.Compacted{Before: 84200, After: 12100})
	if s := screen(m); !strings.Contains(s, "── compacted: 84.2k → 12.1k tokens ──") {
		t.Fatalf("no compaction marker:\n%s", s)
	}
	if st := lastLine(screen(m)); !strings.Contains(st, "compacting") {
		t.Fatalf("status bar after Compacted: %s", st)
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if p := a.prompts(); len(p) != 2 || p[1] != "next thing" {
		t.Fatalf("prompts = %q, want the queued text sent after the compaction", p)
	}
	if st := lastLine(screen(m)); strings.Contains(st, "compacting") {
		t.Fatalf("still compacting: %s", st)
	}
}

func TestCompactEscCancels(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "/compact")
	run := a.last()
	submit(m, "queued one")
	typeText(m, "draft")
	press(m, "esc")
	if run.ctx.Err() == nil {
		t.Fatal("esc did not cancel the compaction's context")
	}
	if st := lastLine(screen(m)); !strings.Contains(st, "interrupting") {
		t.Fatalf("status bar after esc: %s", st)
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonInterrupted})
	s := screen(m)
	if !strings.Contains(s, "Compaction interrupted") {
		t.Fatalf("no interrupted notice:\n%s", s)
	}
	if got, want := m.input.Value(), "queued one\ndraft"; got != want {
		t.Fatalf("input = %q, want %q", got, want)
	}
	if len(a.prompts()) != 0 || m.turn != nil {
		t.Fatal("a turn started after the interrupted compaction")
	}
}

func TestCompactEnds(t *testing.T) {
	tests := []struct {
		name string
		evs  []agent.Event
		end  agent.TurnEnd
		want string
	}{
		{"nothing to compact", []agent.Event{agent.Notice{Text: "nothing to compact yet: the conversation is short"}},
			agent.TurnEnd{Reason: agent.ReasonDone}, "nothing to compact yet"},
		{"error", nil, agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New("summarise 8 messages: 500 boom"), Error: "summarise 8 messages: 500 boom"},
			"could not compact the conversation: summarise 8 messages: 500 boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, a := newTestModel(t, 100, 30)
			submit(m, "/compact")
			if len(tt.evs) > 0 {
				events(t, m, tt.evs...)
			}
			endTurn(t, m, a, tt.end)
			s := screen(m)
			if !strings.Contains(s, tt.want) || !strings.Contains(lastLine(s), "idle") {
				t.Fatalf("screen lacks %q or is not idle:\n%s", tt.want, s)
			}
			submit(m, "hello") // usable afterwards
			if p := a.prompts(); len(p) != 1 {
				t.Fatalf("prompts = %q", p)
			}
		})
	}
}

func TestCompactWaitsForTheTurn(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "work")
	submit(m, "/compact")
	if a.compactions() != 0 {
		t.Fatal("/compact started while a turn runs")
	}
	if s := screen(m); !strings.Contains(s, "/compact waits for the running turn") {
		t.Fatalf("no notice:\n%s", s)
	}
	if len(a.steers) != 0 {
		t.Fatalf("/compact was sent as a steer: %q", a.steers)
	}
}

func TestAutomaticCompactionMarker(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "long work")
	events(t, m, agent.TextDelta{Text: "Working on it."}, agent.Compacted{Before: 120000, After: 9000},
		agent.TextDelta{Text: "Carrying on."})
	s := screen(m)
	if !strings.Contains(s, "── compacted: 120.0k → 9.0k tokens ──") {
		t.Fatalf("no marker for an automatic compaction:\n%s", s)
	}
	if i, j := strings.Index(s, "Working on it."), strings.Index(s, "Carrying on."); i < 0 || j < strings.Index(s, "compacted:") || i > j {
		t.Fatalf("marker not between the two answers:\n%s", s)
	}
	if st := lastLine(s); strings.Contains(st, "compacting") {
		t.Fatalf("a model turn shown as compacting: %s", st)
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
}

func TestBuiltinCommandsReplaceExtras(t *testing.T) {
	ran := false
	a := &scriptAgent{}
	mv := New(Config{Agent: a, Commands: map[string]func() tea.Cmd{
		"compact": func() tea.Cmd { ran = true; return nil },
	}})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	submit(m, "/compact")
	if ran || a.compactions() != 1 {
		t.Fatalf("extra /compact ran (%v) instead of the built-in (%d)", ran, a.compactions())
	}
	if _, ok := m.commands["sessions"]; ok {
		t.Fatal("/sessions offered without Config.Sessions")
	}
}
