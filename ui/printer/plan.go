package printer

import (
	"strings"

	"github.com/tick-agent/tick/agent"
)

// planText writes the plan's events in text mode: a turn that ended with
// open items is said on stderr; the plan proposed by a plan-mode turn goes
// to stdout after the answer, as Markdown, with what changed against the
// previous proposal.
func (p *Printer) planText(ind string, ev agent.Event) {
	switch e := ev.(type) {
	case agent.Unfinished:
		parts := make([]string, len(e.Items))
		for i, it := range e.Items {
			parts[i] = "#" + it.ID + " " + oneLine(it.Text, 60)
		}
		noun := "items"
		if len(e.Items) == 1 {
			noun = "item"
		}
		p.progress(ind, p.yellow("! the turn ended with "+itoa(len(e.Items))+" open "+noun+": "+strings.Join(parts, ", ")))
	case agent.PlanProposed:
		if p.format() == FormatJSON {
			return // the plan is the result object's "plan": stdout holds that object alone
		}
		p.flushOne(p.err)
		var b strings.Builder
		b.WriteString("\n")
		b.WriteString(e.List.Markdown())
		if len(e.Changes) > 0 {
			b.WriteString("\nChanged since the last proposal:\n")
			for _, c := range e.Changes {
				b.WriteString("- " + c.String() + "\n")
			}
		}
		p.out.WriteString(b.String())
	case agent.Paused:
		p.progress(ind, p.dim("· "+e.Text))
	case agent.PlanEditDelivered:
		p.progress(ind, p.dim("· the user's plan edits were sent to the model"))
	}
}

// itoa formats a small non-negative int.
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
