package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// TestLongOneLineResultExpands (issue 30 §11): a one-line result wider
// than the chat says that it is cut and ctrl+o shows all of it, wrapped:
// a web_fetch error's advice at its end can be read.
func TestLongOneLineResultExpands(t *testing.T) {
	m, a := newTestModel(t, 80, 30)
	submit(m, "fetch it")
	msg := "Error: web_fetch: the host example.org is not allowed: " + strings.Repeat("details ", 8) + "add the host to [web] allow in the config"
	events(t, m, agent.ToolStart{ID: "1", Name: "web_fetch", Summary: "https://example.org"},
		agent.ToolEnd{ID: "1", Name: "web_fetch", Output: msg, IsError: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	s := screen(m)
	if strings.Contains(s, "[web] allow") || !strings.Contains(s, "ctrl+o to expand") {
		t.Fatalf("the cut line does not say it can be expanded:\n%s", s)
	}
	press(m, "ctrl+o")
	if s := screen(m); !strings.Contains(strings.Join(strings.Fields(s), " "), "add the host to [web] allow in the config") {
		t.Fatalf("ctrl+o does not show the whole line:\n%s", s)
	}
}

// TestCtrlOOnTheLastCallInView (issue 30 §11): scrolled up, ctrl+o
// expands the lowest tool call in view, not the transcript's last one.
func TestCtrlOOnTheLastCallInView(t *testing.T) {
	m, a := newTestModel(t, 80, 24)
	submit(m, "run")
	events(t, m, agent.ToolStart{ID: "1", Name: "bash", Summary: "early"},
		agent.ToolEnd{ID: "1", Name: "bash", Output: "e1\ne2\ne3\ne4\ne5\ne6\ne7\nEARLY-LAST"})
	for i := range 30 {
		events(t, m, agent.TextDelta{Text: "filler line\n"}, agent.TextDelta{Text: strings.Repeat("x", i%5) + "\n"})
	}
	events(t, m, agent.ToolStart{ID: "2", Name: "bash", Summary: "late"},
		agent.ToolEnd{ID: "2", Name: "bash", Output: "l1\nl2\nl3\nl4\nl5\nl6\nl7\nLATE-LAST"})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	press(m, "home")
	press(m, "ctrl+o")
	if s := screen(m); !strings.Contains(s, "EARLY-LAST") {
		t.Fatalf("ctrl+o did not expand the call in view:\n%s", s)
	}
}
