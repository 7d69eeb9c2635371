package agent

import (
	"github.com/tick-agent/tick/agent/humanize"

	"github.com/tick-agent/tick/agent/compact"
	"github.com/tick-agent/tick/provider"
)

// CostFrom says where the cost of a model call came from.
type CostFrom string

// The sources of a cost. A Usage whose Cost is nil has none.
const (
	CostServer CostFrom = "server" // the server reported it (OpenRouter's usage.cost)
	CostConfig CostFrom = "config" // the user's prices table
	CostTable  CostFrom = "table"  // tick's list prices (PriceOf): an estimate
	CostLocal  CostFrom = "local"  // a self-hosted server: free
	CostMixed  CostFrom = "mixed"  // a total of costs from several sources
)

// Pricing returns the price of a model's tokens and where it came from
// (CostConfig or CostLocal); "" when it does not know it.
type Pricing func(model string) (provider.Price, CostFrom)

// UsageTotal sums the usage of model calls (a turn's, a subagent's, a
// session's). Cost is the sum of the known costs; Unpriced counts the
// calls whose cost is not known, so the cost is complete only when it is
// 0. CostFrom is the one source of the costs, or CostMixed.
type UsageTotal struct {
	Calls            int      `json:"calls"`
	PromptTokens     int      `json:"prompt_tokens"`
	CompletionTokens int      `json:"completion_tokens"`
	CachedTokens     int      `json:"cached_tokens,omitempty"`
	Cost             float64  `json:"cost"`
	Unpriced         int      `json:"unpriced,omitempty"`
	CostFrom         CostFrom `json:"cost_from,omitempty"`
	Estimated        bool     `json:"estimated,omitempty"`
}

// Add counts one call's usage.
func (t *UsageTotal) Add(u Usage) {
	one := UsageTotal{Calls: 1, PromptTokens: max(u.PromptTokens, 0), CompletionTokens: max(u.CompletionTokens, 0),
		CachedTokens: max(u.CachedTokens, 0), Estimated: u.Estimated, Unpriced: 1}
	if u.CostFrom != "" {
		one.Cost, one.Unpriced, one.CostFrom = u.CostUSD, 0, u.CostFrom
	}
	t.AddTotal(one)
}

// AddTotal adds another total to t.
func (t *UsageTotal) AddTotal(o UsageTotal) {
	if o.Calls == 0 {
		return
	}
	switch {
	case o.CostFrom == "":
	case t.CostFrom == "":
		t.CostFrom = o.CostFrom
	case t.CostFrom != o.CostFrom:
		t.CostFrom = CostMixed
	}
	t.Calls += o.Calls
	t.PromptTokens += o.PromptTokens
	t.CompletionTokens += o.CompletionTokens
	t.CachedTokens += o.CachedTokens
	t.Cost += o.Cost
	t.Unpriced += o.Unpriced
	t.Estimated = t.Estimated || o.Estimated
}

// CostKnown reports whether the cost of every call counted is known.
func (t UsageTotal) CostKnown() bool { return t.Calls > 0 && t.Unpriced == 0 }

// priced sets u's cost and where it came from: Config.Pricing's (the
// config's prices, a local server's nothing), else tick's list prices
// (PriceOf); the server's figure when it sent one, unless a price known
// for the model makes the call cost more (a server reporting "cost": 0
// must not switch --max-cost off); else the cost stays unknown. An
// estimated usage (the server reported nothing) is priced too, and says
// so by its Estimated flag.
func (a *Agent) priced(u Usage) Usage {
	cost, from := a.listed(u)
	if c := u.Usage.CostUSD; c != nil && (from == "" || *c >= cost) {
		cost, from = *c, CostServer
	}
	if from != "" {
		u.CostUSD, u.CostFrom = cost, from
	}
	return u
}

// listed returns u's cost by the prices known for the model:
// Config.Pricing's, else tick's list prices; from is "" when none is.
func (a *Agent) listed(u Usage) (float64, CostFrom) {
	model := a.ModelName()
	if a.cfg.Pricing != nil {
		if p, from := a.cfg.Pricing(model); from != "" {
			return p.Cost(u.Usage), from
		}
	}
	if c, ok := PriceOf(model, u.PromptTokens, u.CompletionTokens); ok {
		return c, CostTable
	}
	return 0, ""
}

// withWindow adds the context window and the size at which compaction
// starts to the usage of a parent call, for the status bar.
func (a *Agent) withWindow(u Usage) Usage {
	u.Window = a.window()
	u.CompactAt = u.Window * compact.Threshold / 100
	return u
}

// countUsage adds a call's usage to the running turn's total, which its
// TurnEnd carries.
func (a *Agent) countUsage(u Usage) {
	a.mu.Lock()
	a.turnUsage.Add(u)
	a.mu.Unlock()
}

// takeTurnUsageLocked returns the running turn's total and starts a new one;
// nil when the turn made no model call. The caller holds a.mu.
func (a *Agent) takeTurnUsageLocked() *UsageTotal {
	t := a.turnUsage
	a.turnUsage = UsageTotal{}
	if t.Calls == 0 {
		return nil
	}
	return &t
}

// FormatCost shows a cost in dollars with enough digits for a small
// figure: $12.34, $0.0123, $0.000042; the front-ends' one way to say it.
// A negative or non-finite figure (never reported: see provider) is "$?".
func FormatCost(c float64) string { return humanize.Cost(c) }
