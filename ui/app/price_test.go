package app

import (
	"testing"

	"github.com/tick-agent/tick/agent"
	tickcfg "github.com/tick-agent/tick/agent/config"
)

// TestPriceSourcesAreCostFrom: run.go hands the config's price sources to
// the agent as its CostFrom by name; the names must stay the same.
func TestPriceSourcesAreCostFrom(t *testing.T) {
	for src, want := range map[tickcfg.PriceSource]agent.CostFrom{
		tickcfg.PriceConfig: agent.CostConfig,
		tickcfg.PriceLocal:  agent.CostLocal, tickcfg.PriceUnknown: "",
	} {
		if agent.CostFrom(src) != want {
			t.Errorf("price source %q is not the agent's %q", src, want)
		}
	}
}
