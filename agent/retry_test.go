package agent_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestRetry: after a failed request, Retry sends the conversation again
// without a second user message, and the turn completes; with nothing
// failed, Retry says so and sends nothing.
func TestRetry(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		providertest.Reply{Status: 400, Body: `{"error":{"message":"bad gateway of sorts"}}`},
		providertest.Reply{Text: "Here it is."},
	)
	if e := end(t, h.run("fix the build")); e.Reason != agent.ReasonError {
		t.Fatalf("first turn ended %q, want an error", e.Reason)
	}
	if !h.ag.CanRetry() {
		t.Fatal("CanRetry is false after a failed turn")
	}
	evs := drain(h.ag.Retry(context.Background()))
	if e := end(t, evs); e.Reason != agent.ReasonDone {
		t.Fatalf("retry ended %q (%v), want done", e.Reason, e.Err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	users := 0
	for _, m := range reqs[1].Messages {
		if m.Role == "user" {
			users++
		}
	}
	if users != 1 || reqs[1].LastUser() != "fix the build" {
		t.Fatalf("the retried request has %d user messages (last %q), want the one prompt", users, reqs[1].LastUser())
	}
	hist := h.ag.History()
	if len(hist) != 2 || hist[0].Content != "fix the build" || hist[1].Content != "Here it is." {
		t.Fatalf("history after the retry: %+v", hist)
	}
	if h.ag.CanRetry() {
		t.Fatal("CanRetry after a turn that went well")
	}
	if e := end(t, drain(h.ag.Retry(context.Background()))); !errors.Is(e.Err, agent.ErrNothingToRetry) {
		t.Fatalf("retry after success ended %+v, want ErrNothingToRetry", e)
	}
	if n := len(h.srv.Requests()); n != 2 {
		t.Fatalf("a retry with nothing to retry sent a request (%d in all)", n)
	}
}
