package agent_test

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestDuplicateCallIDsDoNotWedge: a server that gives two calls of one
// message the same id (some do) must not break every later request.
func TestDuplicateCallIDsDoNotWedge(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		providertest.Reply{ToolCalls: []providertest.Call{
			{ID: "dup", Name: "read_file", Args: `{"path":"a.txt"}`},
			{ID: "dup", Name: "read_file", Args: `{"path":"b.txt"}`},
		}},
		providertest.Reply{Text: "done"},
		providertest.Reply{Text: "and again"},
	)
	if e := end(t, h.run("read both")); e.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", e.Reason, e.Err)
	}
	if e := end(t, h.run("once more")); e.Reason != agent.ReasonDone {
		t.Fatalf("the next turn ended %s: %v", e.Reason, e.Err)
	}
	if errs := h.srv.Errors(); len(errs) > 0 {
		t.Fatalf("the server refused a request: %s", strings.Join(errs, "; "))
	}
}

// TestOverCapArgumentsGetAnError: a call whose arguments went past the cap
// is answered with an Error: the model can act on, and its arguments are
// not kept in the history.
func TestOverCapArgumentsGetAnError(t *testing.T) {
	h := newHarness(t)
	big := `{"path":"big.txt","content":"` + strings.Repeat("a", 2<<20) + `"}`
	h.srv.Enqueue(
		providertest.Reply{ChunkSize: 64 << 10, ToolCalls: []providertest.Call{{ID: "w", Name: "write_file", Args: big}}},
		providertest.Reply{Text: "ok"},
	)
	if e := end(t, h.run("write it")); e.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", e.Reason, e.Err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	last := reqs[1].Messages
	var result string
	for _, m := range last {
		if m.Role == "tool" {
			result = m.Content
		}
		for _, c := range m.ToolCalls {
			if len(c.Args) > 1<<10 {
				t.Fatalf("the over-cap arguments were sent back: %d bytes", len(c.Args))
			}
		}
	}
	if !strings.HasPrefix(result, "Error:") || !strings.Contains(result, "1 MiB") {
		t.Fatalf("tool result %q, want an Error: naming the limit", result)
	}
}
