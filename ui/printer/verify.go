package printer

import (
	"fmt"

	"github.com/tick-agent/tick/agent"
)

// verifyLine writes the verify check's progress on stderr: when it runs,
// and what it came to (✓, or ✗ with its exit status and, verbose, the
// tail of its output).
func (p *Printer) verifyLine(ind string, ev agent.Event) {
	switch e := ev.(type) {
	case agent.VerifyStarted:
		p.progress(ind, p.dim(fmt.Sprintf("· verify %d/%d: %s", e.Attempt, e.Max, oneLine(e.Command, 120))))
	case agent.Verified:
		if e.Passed {
			p.progress(ind, "  "+p.green("✓")+" verified")
			return
		}
		status := "did not run to an end"
		if e.ExitCode != nil {
			status = fmt.Sprintf("exit %d", *e.ExitCode)
		}
		line := "  " + p.red("✗") + " verify failed: " + p.red(status)
		if e.Final {
			line += " (no attempt left)"
		}
		p.progress(ind, line)
		if p.opts.Verbose {
			p.progress(ind+"    ", p.dim(head(e.OutputTail, 10)))
		}
	}
}
