package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
)

// TestStatusBarShowsCost: with prices known (the server's figure, the
// config's prices, the list prices), the status bar shows the session's
// cost beside the context share, summed over the turns and marked "≈" when
// part of it is an estimate; a session whose cost is unknown, or a local
// server's free calls, shows none. Fails on code without the cost in the
// bar.
func TestStatusBarShowsCost(t *testing.T) {
	call := func(cost float64, from agent.CostFrom) agent.Usage {
		return agent.Usage{Usage: provider.Usage{PromptTokens: 30000, CompletionTokens: 1000}, Window: 128000, CostUSD: cost, CostFrom: from}
	}
	tests := []struct {
		name  string
		calls []agent.Usage
		want  string // "" for no cost in the bar
	}{
		{"server", []agent.Usage{call(0.0021, agent.CostServer), call(0.0021, agent.CostServer)}, "24% · $0.0042"},
		{"config prices", []agent.Usage{call(1.5, agent.CostConfig)}, "$1.50"},
		{"list prices are an estimate", []agent.Usage{call(0.25, agent.CostTable)}, "≈$0.2500"},
		{"some calls unpriced", []agent.Usage{call(0.25, agent.CostServer), call(0, "")}, "≈$0.2500"},
		{"unknown", []agent.Usage{call(0, ""), call(0, "")}, ""},
		{"local server", []agent.Usage{call(0, agent.CostLocal)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, a := newTestModel(t, 120, 30)
			for _, u := range tt.calls {
				submit(m, "go")
				events(t, m, u)
				endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
			}
			bar := lastLine(screen(m))
			if !strings.Contains(bar, "24%") {
				t.Fatalf("no context share in the bar: %q", bar)
			}
			if tt.want == "" {
				if strings.Contains(bar, "$") {
					t.Fatalf("an unknown cost shows in the bar: %q", bar)
				}
				return
			}
			if !strings.Contains(bar, tt.want) {
				t.Fatalf("the bar lacks %q: %q", tt.want, bar)
			}
		})
	}
}
