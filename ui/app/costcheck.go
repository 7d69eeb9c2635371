package app

import (
	"github.com/tick-agent/tick/agent"
	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/provider"
)

// checkCostBudget refuses a --max-cost (or max_cost) that nothing could
// enforce: the model has no known price (not in the config's prices, not
// in tick's table, not a local server) and its server does not report
// the cost (as OpenRouter does). It names the model and how to give it a
// price.
func checkCostBudget(cfg config) error {
	s := cfg.Settings
	if s == nil || s.Budgets(cfg.Budgets).Cost <= 0 {
		return nil
	}
	if _, src := s.PriceOf(s.Model); src != tickcfg.PriceUnknown {
		return nil
	}
	if _, ok := agent.PriceOf(s.Model, 1, 1); ok {
		return nil
	}
	if provider.Server(s.Provider) == provider.ServerOpenRouter || provider.ServerOf(s.BaseURL) == provider.ServerOpenRouter {
		return nil // the server reports each call's cost
	}
	name := s.Provider
	if name == "" {
		name = "NAME"
	}
	return &usageError{Msg: "--max-cost cannot be enforced: the price of model " + s.Model + " is not known and its server does not report costs; " +
		"give it in the config: [providers." + name + ".prices] \"" + s.Model + "\" = { input = 1.0, output = 2.0 } (US dollars per million tokens)"}
}
