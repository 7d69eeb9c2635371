package printer

import (
	"fmt"

	"github.com/tick-agent/tick/agent"
)

// usageLine writes one model call's usage (verbose): "tokens: 1200 in
// (1000 cached), 30 out · $0.0004".
func (p *Printer) usageLine(ind string, e agent.Usage) {
	if !p.opts.Verbose {
		return
	}
	est := ""
	if e.Estimated {
		est = "~"
	}
	s := fmt.Sprintf("tokens: %s%d in", est, e.PromptTokens)
	if e.CachedTokens > 0 {
		s += fmt.Sprintf(" (%d cached)", e.CachedTokens)
	}
	s += fmt.Sprintf(", %s%d out", est, e.CompletionTokens)
	if e.CostFrom != "" {
		s += " · " + agent.CostText(agent.UsageTotal{Calls: 1, Cost: e.CostUSD, CostFrom: e.CostFrom}, true)
	}
	p.progress(ind, p.dim(s))
}

// turnUsage writes the turn's total (verbose): "usage: 4 calls, 10000
// tokens in, 100 out · $0.0100 (reported by the server)".
func (p *Printer) turnUsage(e agent.TurnEnd) {
	u := e.Usage
	if !p.opts.Verbose || u == nil {
		return
	}
	calls := "calls"
	if u.Calls == 1 {
		calls = "call"
	}
	s := fmt.Sprintf("usage: %d %s, %d tokens in", u.Calls, calls, u.PromptTokens)
	if u.CachedTokens > 0 {
		s += fmt.Sprintf(" (%d cached)", u.CachedTokens)
	}
	s += fmt.Sprintf(", %d out", u.CompletionTokens)
	s += " · " + agent.CostText(*u, true)
	p.progress("", p.dim(s))
}
