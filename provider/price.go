package provider

import "strings"

// Price is what a model's tokens cost, in US dollars per million tokens:
// Input for the prompt, CachedInput for the part of it the server read
// from its prompt cache (0: charged as Input), Output for the completion.
// It is the value of a [providers.NAME.prices."MODEL"] table in the
// config (tick's own list prices are agent.PriceOf).
type Price struct {
	Input       float64 `toml:"input" json:"input"`
	CachedInput float64 `toml:"cached_input" json:"cached_input,omitempty"`
	Output      float64 `toml:"output" json:"output"`
}

// Cost is the price of the call whose usage is u.
func (p Price) Cost(u Usage) float64 {
	cached := min(max(u.CachedTokens, 0), max(u.PromptTokens, 0))
	cachedRate := p.CachedInput
	if cachedRate == 0 {
		cachedRate = p.Input
	}
	in := float64(max(u.PromptTokens, 0)-cached)*p.Input + float64(cached)*cachedRate
	return (in + float64(max(u.CompletionTokens, 0))*p.Output) / 1e6
}

// Valid reports whether every rate is a finite, non-negative number.
func (p Price) Valid() bool {
	for _, r := range []float64{p.Input, p.CachedInput, p.Output} {
		if r != r || r < 0 || r > 1e6 { // NaN, negative, absurd
			return false
		}
	}
	return true
}

// LookupPrice finds model's price in table, by name compared
// case-insensitively: a dated name matches its family
// ("gpt-4o-2024-08-06" is "gpt-4o"): the longest name in the table that
// model starts with, followed by a dash or nothing.
func LookupPrice(table map[string]Price, model string) (Price, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	best, found := "", false
	var price Price
	for name, p := range table {
		n := strings.ToLower(name)
		if !strings.HasPrefix(m, n) || (len(m) > len(n) && m[len(n)] != '-') {
			continue
		}
		if !found || len(n) > len(best) {
			best, price, found = n, p, true
		}
	}
	return price, found
}
