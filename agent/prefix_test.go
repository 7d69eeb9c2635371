package agent_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// rawMessages returns the messages of a request body as the bytes the
// server received.
func rawMessages(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("decode a request body: %v", err)
	}
	return req.Messages
}

// checkPrefixes fails unless each request's messages start with the
// previous request's, byte for byte: what a server's prompt cache needs.
func checkPrefixes(t *testing.T, reqs []providertest.Request) {
	t.Helper()
	for i := 1; i < len(reqs); i++ {
		prev, cur := rawMessages(t, reqs[i-1].Body), rawMessages(t, reqs[i].Body)
		if len(cur) < len(prev) {
			t.Fatalf("request %d has %d messages, fewer than the %d before", i, len(cur), len(prev))
		}
		for j := range prev {
			if !bytes.Equal(prev[j], cur[j]) {
				t.Fatalf("request %d changes message %d:\n%s\nwas\n%s", i, j, cur[j], prev[j])
			}
		}
	}
}

func TestRequestsExtendEachOther(t *testing.T) {
	start := time.Date(2026, 3, 1, 23, 59, 0, 0, time.Local)
	h := newHarness(t, func(c *agent.Config) { c.Date = start })
	bash := func(cmd string) providertest.Reply { return calls(call("bash", `{"command":"`+cmd+`"}`)) }
	// Four tool rounds without todo: the third brings the reminder.
	h.srv.Enqueue(bash("echo 1"), bash("echo 2"), bash("echo 3"), bash("echo 4"), providertest.Reply{Text: "first done"})
	end(t, h.run("do four things"))
	h.srv.Enqueue(bash("echo 5"), providertest.Reply{Text: "second done"})
	end(t, h.run("and one more"))
	h.checkValid()
	first := h.srv.Requests()
	if !strings.Contains(first[len(first)-1].Messages[0].Content, "2026-03-01") {
		t.Fatalf("the system prompt does not name the session's date")
	}
	sawReminder := false
	for _, m := range first[len(first)-1].Messages {
		sawReminder = sawReminder || strings.Contains(m.Content, "Update your todos")
	}
	if !sawReminder {
		t.Fatal("no reminder was sent: the test does not cover it")
	}

	// The session continued the next day (tick -c): a new agent, the
	// saved history, the session's date.
	next := newClientHarness(t, func(c *provider.Config) { c.BaseURL = h.srv.URL },
		func(c *agent.Config) { c.Date = start.Add(48 * time.Hour); c.Workspace = h.dir })
	if err := next.ag.Restore(h.ag.History(), h.ag.Todos()); err != nil {
		t.Fatal(err)
	}
	next.ag.SetPromptDate(start)
	h.srv.Enqueue(providertest.Reply{Text: "third done"})
	if te := end(t, next.run("a follow-up")); te.Reason != agent.ReasonDone {
		t.Fatalf("the follow-up ended %v: %v", te.Reason, te.Err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != len(first)+1 {
		t.Fatalf("%d requests, want %d", len(reqs), len(first)+1)
	}
	checkPrefixes(t, reqs)
}

func TestSubagentRequestsExtendEachOther(t *testing.T) {
	h := newHarness(t)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		child := strings.HasPrefix(r.Messages[1].Content, "CHILD:")
		rounds := 0
		for _, m := range r.Messages {
			if m.Role == "tool" {
				rounds++
			}
		}
		switch {
		case child && rounds < 2:
			return calls(call("bash", `{"command":"echo child"}`))
		case child:
			return providertest.Reply{Text: "child report"}
		case rounds == 0:
			return calls(call("task", `{"description":"look","prompt":"CHILD: look around"}`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	if te := end(t, h.run("delegate")); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %v: %v", te.Reason, te.Err)
	}
	h.checkValid()
	var parent, child []providertest.Request
	for _, r := range h.srv.Requests() {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD:") {
			child = append(child, r)
		} else {
			parent = append(parent, r)
		}
	}
	if len(child) != 3 || len(parent) != 2 {
		t.Fatalf("%d child and %d parent requests, want 3 and 2", len(child), len(parent))
	}
	checkPrefixes(t, parent)
	checkPrefixes(t, child)
}
