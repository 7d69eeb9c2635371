package agent_test

import (
	"testing"

	"github.com/tick-agent/tick/agent"
)

// TestCostText: where a cost came from, and the unknown.
func TestCostText(t *testing.T) {
	tests := []struct {
		total agent.UsageTotal
		want  string
	}{
		{agent.UsageTotal{Calls: 2, CostFrom: agent.CostLocal}, "free (local server)"},
		{agent.UsageTotal{Calls: 2, Unpriced: 2}, "cost unknown"},
		{agent.UsageTotal{Calls: 2, Cost: 0.5, CostFrom: agent.CostTable}, "≈$0.5000 (list prices, an estimate)"},
		{agent.UsageTotal{Calls: 3, Cost: 12.345, CostFrom: agent.CostConfig, Unpriced: 1}, "$12.35 (your prices) + 1 of unknown cost"},
		{agent.UsageTotal{Calls: 1, Cost: 0.000042, CostFrom: agent.CostServer}, "$0.000042 (reported by the server)"},
	}
	for _, tt := range tests {
		if got := agent.CostText(tt.total, true); got != tt.want {
			t.Errorf("CostText(%+v) = %q, want %q", tt.total, got, tt.want)
		}
	}
}
