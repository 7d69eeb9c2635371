package agent_test

import (
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestMaxCostBoundary: a turn whose cost reaches --max-cost exactly
// stops (cost >= MaxCost, not >); one just under it goes on.
func TestMaxCostBoundary(t *testing.T) {
	step := calls(call("bash", `{"command":"echo step"}`)).ToolCalls
	for _, tt := range []struct {
		name     string
		cost     float64
		stops    bool
		requests int
	}{
		{"at the budget", 0.02, true, 1},
		{"under the budget", 0.0199, false, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *agent.Config) { c.Budget.MaxCost = 0.02 })
			h.srv.Enqueue(
				providertest.Reply{ToolCalls: step, Usage: &providertest.Usage{PromptTokens: 10, CompletionTokens: 1, TotalTokens: 11, Cost: tt.cost}},
				providertest.Reply{Text: "done"})
			te := end(t, h.run("go"))
			if stopped := te.Kind == agent.KindBudget; stopped != tt.stops {
				t.Errorf("cost %v against 0.02: turn end %s %s %q; want stopped %v", tt.cost, te.Reason, te.Kind, te.Error, tt.stops)
			}
			if n := len(h.srv.Requests()); n != tt.requests {
				t.Errorf("%d model calls, want %d", n, tt.requests)
			}
		})
	}
}

// TestSubagentSpendCountsTowardMaxCost: what a task's subagent spends
// counts toward the turn's --max-cost: the subagent stops before its next
// call, and so does the parent; nobody's spend escapes the budget.
func TestSubagentSpendCountsTowardMaxCost(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Budget.MaxCost = 0.01 })
	h.srv.Enqueue(
		calls(call("task", `{"description":"dig","prompt":"dig in"}`)),
		providertest.Reply{ToolCalls: calls(call("bash", `{"command":"echo dug"}`)).ToolCalls,
			Usage: &providertest.Usage{PromptTokens: 10, CompletionTokens: 1, TotalTokens: 11, Cost: 0.05}},
		providertest.Reply{Text: "the subagent's second call: over the budget"},
		providertest.Reply{Text: "the parent's next call: over the budget"})
	te := end(t, h.run("go"))
	if te.Kind != agent.KindBudget {
		t.Fatalf("turn end %s %s %q; want the cost budget", te.Reason, te.Kind, te.Error)
	}
	if n := len(h.srv.Requests()); n != 2 {
		t.Errorf("%d model calls, want 2 (the parent's task call, the subagent's first call)", n)
	}
}
