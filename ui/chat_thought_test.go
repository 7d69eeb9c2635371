package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// TestThoughtOpensWithCtrlO: a finished thought shows as one line; ctrl+o
// opens its text, sanitised, and closes it again (issue 35 §3).
func TestThoughtOpensWithCtrlO(t *testing.T) {
	m, _ := newTestModel(t, 100, 40)
	submit(m, "why")
	events(t, m,
		agent.ReasoningDelta{Text: "First I weigh the \x1b[31mred\x1b[m option.\n"},
		agent.ReasoningDelta{Text: "Then the blue one."},
		agent.TextDelta{Text: "Blue."},
		agent.AssistantDone{},
		agent.TurnEnd{Reason: agent.ReasonDone},
	)
	s := screen(m)
	if !strings.Contains(s, "Thought for") || !strings.Contains(s, "(ctrl+o to open)") || strings.Contains(s, "blue one") {
		t.Fatalf("the closed thought:\n%s", s)
	}
	press(m, "ctrl+o")
	s = screen(m)
	if !strings.Contains(s, "First I weigh the red option.") || !strings.Contains(s, "Then the blue one.") {
		t.Fatalf("the opened thought lacks its text:\n%s", s)
	}
	if strings.Contains(m.View().Content, "\x1b[31mred") {
		t.Fatal("the thought's control sequence reached the screen")
	}
	press(m, "ctrl+o")
	if s = screen(m); strings.Contains(s, "blue one") {
		t.Fatalf("ctrl+o again did not close the thought:\n%s", s)
	}
}
