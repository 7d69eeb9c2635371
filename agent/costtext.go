package agent

import (
	"fmt"

	"github.com/tick-agent/tick/agent/humanize"
)

// CostText says a total's cost, and where it came from when source is
// set (an estimate is marked "≈" either way): "$0.0042 (reported by the
// server)", "free (local server)", "cost unknown". It is the one wording
// of a cost for the TUI and -p, so the two agree.
func CostText(t UsageTotal, source bool) string {
	if t.CostFrom == CostLocal && t.Cost == 0 {
		if t.Unpriced == 0 {
			return "free (local server)"
		}
	}
	if t.Calls == 0 || t.Unpriced == t.Calls {
		return "cost unknown"
	}
	s := humanize.Cost(t.Cost)
	if t.CostFrom == CostTable || t.CostFrom == CostMixed {
		s = "≈" + s
	}
	switch {
	case !source:
	case t.CostFrom == CostServer:
		s += " (reported by the server)"
	case t.CostFrom == CostTable:
		s += " (list prices, an estimate)"
	case t.CostFrom == CostConfig:
		s += " (your prices)"
	}
	if t.Unpriced > 0 {
		s += fmt.Sprintf(" + %d of unknown cost", t.Unpriced)
	}
	return s
}
