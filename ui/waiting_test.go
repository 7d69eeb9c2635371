package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
)

// TestWaitingForTheServer: while a model call is silent for more than a
// few seconds the status bar says so and counts; any event ends it, and a
// running tool is never "waiting for the server".
func TestWaitingForTheServer(t *testing.T) {
	now := time.Unix(1000, 0)
	m, a := newTestModel(t, 120, 30)
	m.clock = func() time.Time { return now }
	submit(m, "hi")
	tick := func(d time.Duration) string {
		now = now.Add(d)
		update(m, m.spin.Tick())
		return screen(m)
	}
	if s := tick(2 * time.Second); strings.Contains(s, "waiting for the server") {
		t.Fatalf("waiting shown after 2s:\n%s", s)
	}
	if s := tick(40 * time.Second); !strings.Contains(s, "waiting for the server · 42s") {
		t.Fatalf("no waiting after 42s of silence:\n%s", s)
	}
	deliver(t, m, a, agent.TextDelta{Text: "hello"})
	if s := tick(time.Second); strings.Contains(s, "waiting for the server") {
		t.Fatalf("waiting still shown after text arrived:\n%s", s)
	}
	if s := tick(10 * time.Second); !strings.Contains(s, "waiting for the server · 11s") {
		t.Fatalf("no waiting when the answer stalls:\n%s", s)
	}
	deliver(t, m, a, agent.StreamProgress{})
	if s := tick(time.Second); strings.Contains(s, "waiting for the server") {
		t.Fatalf("tool-call arguments streaming read as silence:\n%s", s)
	}
	deliver(t, m, a, agent.AssistantDone{Text: "hello"}, agent.ToolStart{ID: "c", Name: "bash", Args: "{}", Summary: "sleep 60"})
	if s := tick(time.Minute); strings.Contains(s, "waiting for the server") {
		t.Fatalf("a running tool read as a silent server:\n%s", s)
	}
}

// TestRetryNoticesReplaceEachOther: retries of one model call show as one
// line that counts up, not one line each.
func TestRetryNoticesReplaceEachOther(t *testing.T) {
	m, a := newTestModel(t, 120, 30)
	submit(m, "hi")
	for i := 1; i <= 3; i++ {
		deliver(t, m, a, agent.Retry{Attempt: i, Max: 3, Wait: time.Second, Err: "503 Service Unavailable from http://x/v1"})
	}
	s := screen(m)
	if n := strings.Count(s, "model call failed"); n != 1 || !strings.Contains(s, "retrying 3/3") {
		t.Fatalf("%d retry lines, want one saying 3/3:\n%s", n, s)
	}
	deliver(t, m, a, agent.TextDelta{Text: "answer"}, agent.AssistantDone{Text: "answer", Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	submit(m, "again")
	deliver(t, m, a, agent.Retry{Attempt: 1, Max: 3, Wait: time.Second, Err: "503"})
	if n := strings.Count(screen(m), "model call failed"); n != 2 {
		t.Fatalf("a new turn's retry replaced the old turn's line (%d lines):\n%s", n, screen(m))
	}
}
