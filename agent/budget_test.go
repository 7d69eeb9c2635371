package agent_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestBudgets: each budget stops the turn cleanly — a TurnEnd of kind
// budget naming it, every tool call answered (the next request is valid).
func TestBudgets(t *testing.T) {
	loopCall := calls(call("bash", `{"command":"echo step"}`))
	for _, tt := range []struct {
		name   string
		mutate func(*agent.Config)
		model  string
		script []providertest.Reply
		kind   agent.ErrorKind
		names  string
	}{
		{"max turns", func(c *agent.Config) { c.MaxRounds = 2 }, "test-model",
			[]providertest.Reply{loopCall, loopCall, loopCall}, agent.KindRoundCap, "2 model calls"},
		{"max cost", func(c *agent.Config) { c.Budget.MaxCost = 0.01 }, "gpt-4.1",
			[]providertest.Reply{
				{ToolCalls: loopCall.ToolCalls, Usage: &providertest.Usage{PromptTokens: 4000, CompletionTokens: 100, TotalTokens: 4100}},
				{ToolCalls: loopCall.ToolCalls, Usage: &providertest.Usage{PromptTokens: 4000, CompletionTokens: 100, TotalTokens: 4100}},
				{Text: "never"}}, agent.KindBudget, "--max-cost"},
		{"max cost by the server's figure", func(c *agent.Config) { c.Budget.MaxCost = 0.01 }, "test-model",
			[]providertest.Reply{
				{ToolCalls: loopCall.ToolCalls, Usage: &providertest.Usage{PromptTokens: 10, CompletionTokens: 1, TotalTokens: 11, Cost: 0.02}},
				{Text: "never"}}, agent.KindBudget, "spent $0.02"},
		{"max time", func(c *agent.Config) { c.Budget.MaxTime = 300 * time.Millisecond }, "test-model",
			[]providertest.Reply{calls(call("bash", `{"command":"sleep 30"}`)), {Text: "never"}}, agent.KindBudget, "--max-time"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.mutate, func(c *agent.Config) { c.ModelName = tt.model })
			h.srv.Enqueue(tt.script...)
			te := end(t, h.run("go"))
			if te.Reason != agent.ReasonError || te.Kind != tt.kind || !strings.Contains(te.Error, tt.names) {
				t.Fatalf("turn end = %s %s %q, want error %s naming %q", te.Reason, te.Kind, te.Error, tt.kind, tt.names)
			}
			// The conversation stays valid: another turn goes through.
			h.srv.Enqueue(providertest.Reply{Text: "carried on"})
			if te := end(t, h.run("carry on")); te.Reason != agent.ReasonDone {
				t.Fatalf("the next turn ended %s: %v", te.Reason, errors.Unwrap(te.Err))
			}
			h.checkValid()
		})
	}
}

// TestPriceOf prices a known model and knows no price for a local one.
func TestPriceOf(t *testing.T) {
	if c, ok := agent.PriceOf("openai/gpt-4.1-mini", 1_000_000, 1_000_000); !ok || c < 1.99 || c > 2.01 {
		t.Errorf("PriceOf(gpt-4.1-mini, 1M, 1M) = %v, %v; want 2.00, true", c, ok)
	}
	if _, ok := agent.PriceOf("qwen2.5-coder:7b", 10, 10); ok {
		t.Error("a local model has a price")
	}
}
