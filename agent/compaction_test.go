package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

func TestCompactionKeepsPlan(t *testing.T) {
	h := newHarness(t, func(cfg *agent.Config) { cfg.ContextWindow = 3000 })
	big := `{"command":"head -c 4000 /dev/zero | tr '\\0' Q"}`
	plan := `{"goal":"Fill the context","items":[{"id":"1","text":"Produce output","status":"in_progress","active_form":"Producing"},{"id":"2","text":"Report","status":"pending"}]}`
	rounds := 0
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if len(r.Tools) == 0 { // the summary request offers no tools
			return providertest.Reply{Text: "SUMMARY: the user wants output; 4000 Qs were printed."}
		}
		rounds++
		switch rounds {
		case 1:
			return calls(call("todo", plan))
		case 2, 3:
			return calls(call("bash", big))
		}
		return providertest.Reply{Text: "all done"}
	})
	evs := h.run("fill the context please")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	var compacted *agent.Compacted
	for _, ev := range evs {
		if c, ok := ev.(agent.Compacted); ok {
			compacted = &c
		}
	}
	if compacted == nil {
		t.Fatal("no compaction happened with a 3,000-token window")
	}
	if compacted.After >= compacted.Before {
		t.Errorf("compaction went from %d to %d tokens", compacted.Before, compacted.After)
	}
	reqs := h.srv.Requests()
	last := reqs[len(reqs)-1]
	all := dump(last.Messages)
	t.Run("summary kept", func(t *testing.T) {
		if !strings.Contains(all, "SUMMARY: the user wants output") {
			t.Error("the request after compaction lacks the summary")
		}
	})
	t.Run("plan verbatim", func(t *testing.T) {
		if !strings.Contains(all, "Goal: Fill the context") || !strings.Contains(all, "[>] #1: Produce output") {
			t.Errorf("the todo list is not in the request after compaction:\n%s", all)
		}
	})
	t.Run("old outputs gone", func(t *testing.T) {
		if n := strings.Count(all, strings.Repeat("Q", 4000)); n > 1 {
			t.Errorf("%d full old outputs still sent", n)
		}
	})
}

func TestCompactOnDemand(t *testing.T) {
	h := newHarness(t)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if len(r.Tools) == 0 {
			return providertest.Reply{Text: "SUMMARY-ON-DEMAND"}
		}
		return providertest.Reply{Text: "answer to " + r.LastUser()}
	})
	t.Run("too short", func(t *testing.T) {
		h.run("only turn")
		evs := drain(h.ag.Compact(context.Background()))
		if te := end(t, evs); te.Reason != agent.ReasonDone {
			t.Fatalf("ended %s: %v", te.Reason, te.Err)
		}
		if n, ok := evs[0].(agent.Notice); !ok || !strings.Contains(n.Text, "nothing to compact") {
			t.Fatalf("first event = %#v, want a notice that there is nothing to compact", evs[0])
		}
	})
	t.Run("compacts", func(t *testing.T) {
		for i := 0; i < 4; i++ {
			h.run(fmt.Sprintf("turn %d", i))
		}
		evs := drain(h.ag.Compact(context.Background()))
		if te := end(t, evs); te.Reason != agent.ReasonDone {
			t.Fatalf("ended %s: %v", te.Reason, te.Err)
		}
		if _, ok := evs[0].(agent.Compacted); !ok {
			t.Fatalf("first event = %#v, want Compacted", evs[0])
		}
		h.run("after")
		reqs := h.srv.Requests()
		all := dump(reqs[len(reqs)-1].Messages)
		if !strings.Contains(all, "SUMMARY-ON-DEMAND") || strings.Contains(all, "only turn") {
			t.Errorf("request after /compact:\n%s", all)
		}
		h.checkValid()
	})
}

// TestLateContextWindow checks Config.ContextWindowFunc: without a
// ContextWindow the agent asks it once, when it first needs the size, and
// compacts near its answer; an answer of 0 leaves the size to the model
// name (large here: no compaction).
func TestLateContextWindow(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  int
		compact bool
	}{{"served 3000", 3000, true}, {"server did not say", 0, false}} {
		t.Run(tc.name, func(t *testing.T) {
			asked := 0
			h := newHarness(t, func(cfg *agent.Config) {
				cfg.ContextWindowFunc = func() int { asked++; return tc.answer }
			})
			big := `{"command":"head -c 4000 /dev/zero | tr '\\0' Q"}`
			rounds := 0
			h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
				if len(r.Tools) == 0 {
					return providertest.Reply{Text: "SUMMARY: 4000 Qs were printed."}
				}
				rounds++
				if rounds <= 2 {
					return calls(call("bash", big))
				}
				return providertest.Reply{Text: "all done"}
			})
			evs := h.run("fill the context please")
			if te := end(t, evs); te.Reason != agent.ReasonDone {
				t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
			}
			h.checkValid()
			compacted := false
			for _, ev := range evs {
				if _, ok := ev.(agent.Compacted); ok {
					compacted = true
				}
			}
			if compacted != tc.compact {
				t.Errorf("compacted = %v with a served window of %d", compacted, tc.answer)
			}
			if asked != 1 {
				t.Errorf("ContextWindowFunc was called %d times, want once", asked)
			}
		})
	}
}

// TestSpecsCountTowardWindow: the estimate that decides compaction counts
// the tool specs the request offers, which a local server's small context
// must hold too: a history well under the window with the specs on top
// past it is compacted before the request, not sent to be cut.
func TestSpecsCountTowardWindow(t *testing.T) {
	reply := func(r providertest.Request) providertest.Reply {
		if len(r.Tools) == 0 {
			return providertest.Reply{Text: "SUMMARY-SPECS", NoUsage: true}
		}
		return providertest.Reply{Text: "ok " + strings.Repeat("w", 400), NoUsage: true}
	}
	prompts := make([]string, 4)
	for i := range prompts { // a history of some 600 tokens
		prompts[i] = fmt.Sprintf("turn %d %s", i, strings.Repeat("x", 200))
	}
	// First measure the request without a small window.
	probe := newHarness(t)
	probe.srv.SetFunc(reply)
	for _, p := range prompts {
		probe.run(p)
	}
	probe.run("one more")
	reqs := probe.srv.Requests()
	last := reqs[len(reqs)-1]
	specs, hist := 0, 0
	for _, s := range last.ToolSpecs {
		specs += len(s.Name) + len(s.Description) + len(s.Parameters)
	}
	for _, m := range last.Messages {
		hist += len(m.Content) + 4*4
	}
	// A served window where the history alone stays under the 80%
	// threshold, and with the specs it is past it.
	window := (hist/4 + specs/4) * 100 / 90
	if hist/4*100 >= window*70 {
		t.Fatalf("setup: history ~%d tokens is too near 80%% of %d", hist/4, window)
	}
	h := newHarness(t, func(cfg *agent.Config) { cfg.ContextWindowFunc = func() int { return window } })
	h.srv.SetFunc(reply)
	compacted := false
	for _, p := range append(prompts, "one more") {
		for _, ev := range h.run(p) {
			if _, ok := ev.(agent.Compacted); ok {
				compacted = true
			}
		}
	}
	if !compacted {
		t.Fatalf("no compaction with history ~%d + specs ~%d tokens in a window of %d", hist/4, specs/4, window)
	}
	h.checkValid()
}

// TestCompactionKeepsTheUsersPrompt: a compaction in the middle of a turn
// too long to keep whole still sends the prompt the user wrote for it,
// verbatim, in every request after it, even when the loop's reminders
// came after it.
func TestCompactionKeepsTheUsersPrompt(t *testing.T) {
	h := newHarness(t, func(cfg *agent.Config) { cfg.ContextWindow = 3000 })
	big := `{"command":"head -c 4000 /dev/zero | tr '\\0' Q"}`
	const prompt = "THE-REAL-TASK: never touch prod.cfg"
	rounds := 0
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if len(r.Tools) == 0 {
			return providertest.Reply{Text: "SUMMARY: outputs were printed."}
		}
		if !strings.Contains(dump(r.Messages), prompt) {
			return providertest.Reply{Text: "hello"}
		}
		rounds++
		if rounds <= 3 {
			return calls(call("bash", big))
		}
		return providertest.Reply{Text: "done"}
	})
	h.run("first, say hello")
	evs := h.run(prompt)
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	compactedAt := -1
	reqs := h.srv.Requests()
	for i, r := range reqs {
		if len(r.Tools) == 0 {
			compactedAt = i
		}
	}
	if compactedAt < 0 {
		t.Fatal("no compaction happened with a 3,000-token window")
	}
	for _, r := range reqs[compactedAt+1:] {
		if !strings.Contains(dump(r.Messages), prompt) {
			t.Fatalf("a request after the compaction lacks the user's prompt:\n%s", dump(r.Messages))
		}
	}
}
