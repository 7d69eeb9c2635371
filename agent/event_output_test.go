package agent_test

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestToolOutputLive: a command that prints over time sends its output as
// ToolOutput events while it runs (before its ToolEnd, the first line
// before the last one is printed), bounded to the tail.
func TestToolOutputLive(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		providertest.Reply{ToolCalls: []providertest.Call{{Name: "bash", Args: `{"command":"echo first; sleep 0.6; head -c 40000 /dev/zero | tr '\\0' x; echo; echo last"}`}}},
		providertest.Reply{Text: "done"},
	)
	evs := h.run("run it")
	var outs []agent.ToolOutput
	ended := false
	for _, ev := range evs {
		switch ev := ev.(type) {
		case agent.ToolOutput:
			if ended {
				t.Fatal("a ToolOutput came after the ToolEnd")
			}
			outs = append(outs, ev)
		case agent.ToolEnd:
			ended = true
		}
	}
	if len(outs) < 2 {
		t.Fatalf("%d ToolOutput events, want the output in at least two pieces", len(outs))
	}
	if first := outs[0]; first.Tail != "first\n" || first.ID == "" {
		t.Fatalf("first ToolOutput %+v, want the first line alone (before the sleep ends)", first)
	}
	last := outs[len(outs)-1]
	if !strings.HasSuffix(last.Tail, "last\n") || len(last.Tail) > agent.OutputTailMax || last.Total != int64(len("first\n")+40000+1+len("last\n")) {
		t.Fatalf("last ToolOutput: %d bytes of tail ending %q, total %d", len(last.Tail), last.Tail[max(len(last.Tail)-10, 0):], last.Total)
	}
}
