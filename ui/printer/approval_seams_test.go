package printer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/printer"
)

// TestSeamParallelTaskApprovalsHeadless (seams: -p, parallel tasks, the
// user's plan edits): in -p there is no dialog; two tasks asking at once,
// with the user's plan edit delivered between them, each get the headless
// denial at once, in the order they asked, and stderr names both calls.
func TestSeamParallelTaskApprovalsHeadless(t *testing.T) {
	r1, r2 := make(chan agent.Approval, 1), make(chan agent.Approval, 1)
	var out, errb bytes.Buffer
	_, err := printer.New(&out, &errb, printer.Options{}).Run(feed(
		agent.TodoUpdate{List: plan},
		agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "build part", Item: "2"},
		agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: "docs part", Item: "3"},
		agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "c1", Name: "bash", Summary: "make"}},
		agent.ApprovalRequest{ID: "c1", Tool: "bash", Summary: "make", Task: "t1", TaskName: "build part", Reply: r1},
		agent.PlanEditDelivered{Text: "the user added an item"},
		agent.Subagent{ParentID: "t2", Event: agent.ToolStart{ID: "c2", Name: "write_file", Summary: "docs/a.md"}},
		agent.ApprovalRequest{ID: "c2", Tool: "write_file", Summary: "docs/a.md", Task: "t2", TaskName: "docs part", Reply: r2},
		agent.TurnEnd{Reason: agent.ReasonDone},
	))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	for i, r := range []chan agent.Approval{r1, r2} {
		select {
		case a := <-r:
			if a.Allow || a.Always || a.Reason != printer.HeadlessDenial {
				t.Errorf("request %d answered %+v, want the headless denial", i+1, a)
			}
		default:
			t.Errorf("request %d got no answer", i+1)
		}
	}
	e := errb.String()
	first, second := strings.Index(e, "bash needs approval (make)"), strings.Index(e, "write_file needs approval (docs/a.md)")
	if first < 0 || second < first {
		t.Errorf("stderr does not name both denied calls in order:\n%s", e)
	}
}
