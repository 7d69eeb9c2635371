package agent_test

import (
	"math"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// usageScript answers with growing usage: a task call for the first request with
// tools, the subagent's answer, a bash call, then the final answer.
func usageScript(costs bool) func(providertest.Request) providertest.Reply {
	n := 0
	return func(r providertest.Request) providertest.Reply {
		n++
		u := &providertest.Usage{PromptTokens: 1000 * n, CompletionTokens: 10 * n, TotalTokens: 1010 * n,
			Details: &providertest.PromptDetails{CachedTokens: 100 * n}}
		if costs {
			c := 0.001 * float64(n)
			u.Cost = c
		}
		var rep providertest.Reply
		switch n {
		case 1:
			rep = calls(call("task", `{"prompt":"look around"}`))
		case 2:
			rep = providertest.Reply{Text: "the subagent's findings"}
		case 3:
			rep = calls(call("bash", `{"command":"true"}`))
		default:
			rep = providertest.Reply{Text: "done"}
		}
		rep.Usage = u
		return rep
	}
}

// TestTurnUsage: the turn's TurnEnd carries the sum of the usage the
// server reported for every call, the subagent's included; the cost is
// the server's where it reports one (OpenRouter), else the Pricing's, else
// unknown; a parent call's Usage says the window and where compaction
// starts.
func TestTurnUsage(t *testing.T) {
	tests := []struct {
		name     string
		costs    bool
		pricing  agent.Pricing
		wantCost float64
		wantFrom agent.CostFrom
		unpriced int
	}{
		{name: "server reports the cost", costs: true, wantCost: 0.001 + 0.002 + 0.003 + 0.004, wantFrom: agent.CostServer},
		{name: "server cost wins over a lower price", costs: true, wantCost: 0.010, wantFrom: agent.CostServer,
			pricing: func(string) (provider.Price, agent.CostFrom) { return provider.Price{Input: 0.01}, agent.CostConfig }},
		{name: "a higher price wins over the server's cost", costs: true, wantCost: 10_000 * 1000 / 1e6, wantFrom: agent.CostConfig,
			pricing: func(string) (provider.Price, agent.CostFrom) { return provider.Price{Input: 1000}, agent.CostConfig }},
		{name: "priced by the config", wantFrom: agent.CostConfig,
			// 10,000 prompt tokens (1,000 cached at half), 100 completion
			wantCost: (9000*2 + 1000*1 + 100*8) / 1e6,
			pricing: func(m string) (provider.Price, agent.CostFrom) {
				if m != "test-model" {
					t.Errorf("priced model %q", m)
				}
				return provider.Price{Input: 2, CachedInput: 1, Output: 8}, agent.CostConfig
			}},
		{name: "local server is free", wantFrom: agent.CostLocal,
			pricing: func(string) (provider.Price, agent.CostFrom) { return provider.Price{}, agent.CostLocal }},
		{name: "unknown", unpriced: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(cfg *agent.Config) { cfg.Pricing = tt.pricing; cfg.ContextWindow = 100_000 })
			h.srv.SetFunc(usageScript(tt.costs))
			evs := h.run("go")
			te := end(t, evs)
			if te.Reason != agent.ReasonDone || te.Usage == nil {
				t.Fatalf("turn ended %s (%v) with usage %+v", te.Reason, te.Err, te.Usage)
			}
			u := *te.Usage
			if u.Calls != 4 || u.PromptTokens != 10_000 || u.CompletionTokens != 100 || u.CachedTokens != 1000 {
				t.Errorf("turn usage = %+v; want 4 calls, 10000 in, 100 out, 1000 cached", u)
			}
			if math.Abs(u.Cost-tt.wantCost) > 1e-12 || u.CostFrom != tt.wantFrom || u.Unpriced != tt.unpriced {
				t.Errorf("cost = %v from %q (%d unpriced); want %v from %q (%d)", u.Cost, u.CostFrom, u.Unpriced, tt.wantCost, tt.wantFrom, tt.unpriced)
			}
			// The events add up to the same total.
			var sum agent.UsageTotal
			parents := 0
			for _, ev := range evs {
				switch e := ev.(type) {
				case agent.Usage:
					sum.Add(e)
					parents++
					if e.Window != 100_000 || e.CompactAt != 80_000 {
						t.Errorf("parent usage window %d, compact at %d", e.Window, e.CompactAt)
					}
				case agent.Subagent:
					if su, ok := e.Event.(agent.Usage); ok {
						sum.Add(su)
						if su.Window != 0 {
							t.Errorf("a subagent's usage says window %d", su.Window)
						}
					}
				}
			}
			if sum != u || parents != 3 {
				t.Errorf("events sum to %+v (%d parent calls); TurnEnd says %+v", sum, parents, u)
			}
		})
	}
}

// TestFormatCost: enough digits for a small figure, none too many.
func TestFormatCost(t *testing.T) {
	for c, want := range map[float64]string{
		0: "$0", 12.345: "$12.35", 0.0123: "$0.0123", 0.0004: "$0.0004", 0.000042: "$0.000042",
		1e-15: "$0", -1: "$?", math.Inf(1): "$?",
	} {
		if got := agent.FormatCost(c); got != want {
			t.Errorf("FormatCost(%v) = %q, want %q", c, got, want)
		}
	}
}
