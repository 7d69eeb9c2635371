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
		s += " · " + costWords(e.CostUSD, e.CostFrom, 0)
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
	if u.Calls > u.Unpriced {
		s += " · " + costWords(u.Cost, u.CostFrom, u.Unpriced)
	} else {
		s += " · cost unknown"
	}
	p.progress("", p.dim(s))
}

// costWords says a cost and where it came from.
func costWords(c float64, from agent.CostFrom, unpriced int) string {
	s := agent.FormatCost(c)
	switch from {
	case agent.CostServer:
		s += " (reported by the server)"
	case agent.CostConfig:
		s += " (your prices)"
	case agent.CostTable:
		s = "≈" + s + " (list prices, an estimate)"
	case agent.CostLocal:
		s = "free (local server)"
	case agent.CostMixed:
		s = "≈" + s
	}
	if unpriced > 0 {
		s += fmt.Sprintf(" + %d of unknown cost", unpriced)
	}
	return s
}
