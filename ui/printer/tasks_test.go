package printer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/printer"
)

// TestTaskLinesPrefixedWithTheirItem: the lines of tasks running side by
// side say whose they are, and --json carries each task's id.
func TestTaskLinesPrefixedWithTheirItem(t *testing.T) {
	evs := []agent.Event{
		agent.ToolStart{ID: "t1", Name: "task", Summary: "build part", Item: "1"},
		agent.ToolStart{ID: "t2", Name: "task", Summary: "docs part"},
		agent.Subagent{ParentID: "t2", Event: agent.ToolStart{ID: "s2", Name: "read_file", Summary: "README.md"}},
		agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "s1", Name: "bash", Summary: "go build"}},
		agent.Subagent{ParentID: "t1", Event: agent.ToolEnd{ID: "s1", Name: "bash", Output: "ok"}},
		agent.ToolEnd{ID: "t2", Name: "task", Output: "docs done"},
		agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "s3", Name: "bash", Summary: "go vet"}},
		agent.ToolEnd{ID: "t1", Name: "task", Output: "built"},
		agent.AssistantDone{Text: "all done", Final: true},
		agent.TurnEnd{Reason: agent.ReasonDone},
	}
	run := func(opts printer.Options) (string, string) {
		ch := make(chan agent.Event, len(evs))
		for _, ev := range evs {
			ch <- ev
		}
		close(ch)
		var out, errOut bytes.Buffer
		printer.New(&out, &errOut, opts).Run(ch)
		return out.String(), errOut.String()
	}
	_, text := run(printer.Options{})
	for _, want := range []string{"[docs part]     → read_file  README.md", "[#1]     → bash  go build", "[#1]     → bash  go vet"} {
		if !strings.Contains(text, want) {
			t.Errorf("-p output lacks %q:\n%s", want, text)
		}
	}
	out, _ := run(printer.Options{JSON: true})
	if !strings.Contains(out, `{"type":"subagent","parent_id":"t1","event":{"type":"tool_start","id":"s1"`) || !strings.Contains(out, `"name":"task","args":"","summary":"build part","item":"1"`) {
		t.Errorf("--json lacks the task ids and the item:\n%s", out)
	}
}
