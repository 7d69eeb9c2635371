package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
)

// TestResetKeepsOnlyTheResumedProposal: switching sessions drops the
// previous conversation's proposal; a resumed session left with a plan
// awaiting approval (a PlanProposed after its replay) shows it open, and a
// deliberate y approves it.
func TestResetKeepsOnlyTheResumedProposal(t *testing.T) {
	old := plan("Old", "p OLD step")
	m, a := newPlanModel(t, old)
	c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	m.clock = c.now
	a.SetMode(agent.ModePlan)
	submit(m, "plan it")
	events(t, m, agent.TodoUpdate{List: old, Rev: 1}, agent.PlanProposed{List: old, Rev: 1})
	endTurn(t, m, a.scriptAgent, agent.TurnEnd{Reason: agent.ReasonDone})
	if !strings.Contains(screen(m), "Implement this plan?") {
		t.Fatalf("no proposal:\n%s", screen(m))
	}

	other := plan("Other", "p OTHER step")
	m.Update(ResetMsg{Agent: a, History: []agent.Event{agent.TodoUpdate{List: other, Rev: 1}}, Todos: other})
	if s := screen(m); strings.Contains(s, "Implement this plan?") {
		t.Fatalf("the previous session's proposal survived the switch:\n%s", s)
	}

	resumed := plan("Resumed", "p RESUMED step")
	if err := a.real.Restore(nil, resumed); err != nil {
		t.Fatal(err)
	}
	m.Update(ResetMsg{Agent: a, History: []agent.Event{
		agent.UserMessage{Text: "plan it"},
		agent.TodoUpdate{List: resumed, Rev: 1},
		agent.PlanProposed{List: resumed, Rev: 1},
	}, Todos: resumed})
	s := screen(m)
	if !strings.Contains(s, "Implement this plan?") || !strings.Contains(s, "RESUMED step") {
		t.Fatalf("the resumed proposal is not open:\n%s", s)
	}
	c.advance(time.Second) // a deliberate y
	press(m, "y")
	if p := a.prompts(); len(p) != 2 || !strings.Contains(p[1], "I approve this plan") || !strings.Contains(p[1], "RESUMED step") {
		t.Fatalf("prompts after y = %q", p)
	}
}
