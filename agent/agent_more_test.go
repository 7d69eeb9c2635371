package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

func TestBadToolCalls(t *testing.T) {
	h := newHarness(t)
	outside := filepath.Join(filepath.Dir(h.dir), "outside.txt")
	cases := []struct {
		name, tool, args, want string
	}{
		{"malformed JSON", "bash", `{"command": "ls" "-la"}`, "not valid JSON"}, // a missing last brace alone is repaired
		{"unknown tool", "deploy", `{}`, `unknown tool "deploy"`},
		{"path escape", "read_file", `{"path":"../outside.txt"}`, "outside the workspace"},
		{"absolute escape", "write_file", fmt.Sprintf(`{"path":%q,"content":"x"}`, outside), "outside the workspace"},
		{"missing file", "read_file", `{"path":"nope.txt"}`, "nope.txt"},
		{"missing argument", "edit_file", `{"path":"a.txt"}`, "Error"},
		{"empty name", "", `{}`, "unknown tool"},
	}
	for _, c := range cases {
		h.srv.Enqueue(calls(call(c.tool, c.args)))
	}
	h.srv.Enqueue(providertest.Reply{Text: "recovered"})
	evs := h.run("try things")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	ends := toolEnds(evs)
	if len(ends) != len(cases) {
		t.Fatalf("got %d results, want %d", len(ends), len(cases))
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ends[i]
			if !got.IsError || !strings.HasPrefix(got.Output, "Error: ") || !strings.Contains(got.Output, c.want) {
				t.Fatalf("result = %q, want an Error containing %q", got.Output, c.want)
			}
		})
	}
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("a write escaped the workspace")
	}
	// Malformed arguments go back to the server as "{}", so servers that
	// parse earlier calls' arguments accept the next request.
	for _, m := range h.ag.History() {
		for _, c := range m.ToolCalls {
			if !json.Valid([]byte(c.Arguments)) {
				t.Errorf("history holds unparsable arguments %q", c.Arguments)
			}
		}
	}
}

func TestSubagentFreshContext(t *testing.T) {
	h := newHarness(t)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		first := r.Messages[1].Content // after the system prompt
		isChild := strings.HasPrefix(first, "CHILD:")
		switch {
		case isChild && r.Last().Role == "user":
			return calls(call("bash", `{"command":"echo secret-from-child"}`))
		case isChild:
			return providertest.Reply{Text: "child summary: found 42"}
		case r.Last().Role == "user":
			return calls(call("task", `{"description":"Count things","prompt":"CHILD: count the things"}`))
		default:
			return providertest.Reply{Text: "parent done"}
		}
	})
	evs := h.run("PARENT: delegate")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	var childReq, parentLast providertest.Request
	for _, r := range h.srv.Requests() {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD:") {
			childReq = r
		} else {
			parentLast = r
		}
	}
	t.Run("child context", func(t *testing.T) {
		if strings.Contains(dump(childReq.Messages), "PARENT") {
			t.Error("the child saw the parent's conversation")
		}
		for _, tool := range childReq.Tools {
			if tool == "task" || tool == "todo" {
				t.Errorf("the child was offered %q", tool)
			}
		}
		if len(childReq.Tools) == 0 {
			t.Error("the child was offered no tools")
		}
	})
	t.Run("parent sees only the summary", func(t *testing.T) {
		all := dump(parentLast.Messages)
		if !strings.Contains(all, "child summary: found 42") {
			t.Error("the parent did not get the child's answer")
		}
		if strings.Contains(all, "secret-from-child") {
			t.Error("the child's tool output leaked into the parent's context")
		}
	})
	t.Run("nested events", func(t *testing.T) {
		var nested []string
		for _, ev := range evs {
			if s, ok := ev.(agent.Subagent); ok {
				if _, live := s.Event.(agent.ToolOutput); !live { // output as it comes, between the two
					nested = append(nested, s.Event.Type())
				}
				if s.ParentID == "" {
					t.Error("a subagent event has no parent id")
				}
			}
		}
		if !strings.Contains(strings.Join(nested, ","), "tool_start,tool_end") {
			t.Errorf("nested events = %v, want the child's tool calls", nested)
		}
	})
}

func TestInterruptDuringStream(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(providertest.Reply{Text: "I am about to say something long", Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := h.ag.Run(ctx, "talk")
	var evs []agent.Event
	for ev := range ch {
		evs = append(evs, ev)
		if _, ok := ev.(agent.TextDelta); ok {
			cancel()
		}
	}
	if te := end(t, evs); te.Reason != agent.ReasonInterrupted {
		t.Fatalf("turn ended %s: %v, want interrupted", te.Reason, te.Err)
	}
	partial := text(evs)
	h.srv.Enqueue(providertest.Reply{Text: "follow-up answer"})
	evs = h.run("go on")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("follow-up ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	reqs := h.srv.Requests()
	msgs := reqs[len(reqs)-1].Messages
	if partial != "" && !strings.Contains(dump(msgs), partial) {
		t.Errorf("the partial answer %q was not kept in the history", partial)
	}
}

func TestInterruptDuringCommand(t *testing.T) {
	h := newHarness(t)
	marker := fmt.Sprintf("tick-test-%d", time.Now().UnixNano())
	h.srv.Enqueue(
		calls(call("bash", fmt.Sprintf(`{"command":"(exec -a %s sleep 30); echo after"}`, marker)), call("bash", `{"command":"echo never"}`)),
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := h.ag.Run(ctx, "sleep")
	var evs []agent.Event
	for ev := range ch {
		evs = append(evs, ev)
		if _, ok := ev.(agent.ToolStart); ok {
			waitFor(t, func() bool { return processWith(marker) })
			cancel()
		}
	}
	if te := end(t, evs); te.Reason != agent.ReasonInterrupted {
		t.Fatalf("turn ended %s: %v, want interrupted", te.Reason, te.Err)
	}
	// SIGKILL is delivered at once but the process takes a moment to go:
	// give it a deadline, not a race.
	deadline := time.Now().Add(10 * time.Second)
	for processWith(marker) {
		if time.Now().After(deadline) {
			t.Fatal("the sleep process survived the interrupt by 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	if te := end(t, h.run("next")); te.Reason != agent.ReasonDone {
		t.Fatalf("follow-up ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	hist := h.ag.History()
	var results []string
	for _, m := range hist {
		if m.Role == provider.RoleTool {
			results = append(results, m.Content)
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], provider.Interrupted) || results[1] != provider.Interrupted {
		t.Errorf("tool results after interrupt = %q", results)
	}
}

// processWith reports whether a process has marker in its command line.
func processWith(marker string) bool {
	paths, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), marker) {
			return true
		}
	}
	return false
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestServerErrors(t *testing.T) {
	t.Run("500 then success", func(t *testing.T) {
		h := newHarness(t)
		h.srv.Enqueue(providertest.Reply{Status: 500, Body: `{"error":{"message":"overloaded"}}`}, providertest.Reply{Text: "fine now"})
		evs := h.run("hi")
		if te := end(t, evs); te.Reason != agent.ReasonDone {
			t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
		}
		retried := false
		for _, ev := range evs {
			if _, ok := ev.(agent.Retry); ok {
				retried = true
			}
		}
		if !retried || text(evs) != "fine now" {
			t.Errorf("retried=%v text=%q", retried, text(evs))
		}
	})
	t.Run("401 fails fast", func(t *testing.T) {
		h := newHarness(t)
		h.srv.Enqueue(providertest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided"}}`})
		te := end(t, h.run("hi"))
		if te.Reason != agent.ReasonError || !strings.Contains(te.Error, "401") || !strings.Contains(te.Error, "OPENAI_API_KEY") || te.Kind != agent.KindAuth {
			t.Fatalf("TurnEnd = %+v, want a 401 error naming OPENAI_API_KEY", te)
		}
		var apiErr *provider.APIError
		if !errors.As(te.Err, &apiErr) {
			t.Errorf("error %v is not a provider.APIError", te.Err)
		}
		if n := len(h.srv.Requests()); n != 1 {
			t.Errorf("%d requests, want 1 (no retry on 401)", n)
		}
		// The conversation stays usable.
		h.srv.Enqueue(providertest.Reply{Text: "ok"})
		if te := end(t, h.run("again")); te.Reason != agent.ReasonDone {
			t.Fatalf("next turn ended %s: %v", te.Reason, te.Err)
		}
		h.checkValid()
	})
	t.Run("cut stream", func(t *testing.T) {
		h := newHarness(t)
		h.srv.Enqueue(providertest.Reply{Text: "this answer will be cut short somewhere", CutAfter: 2})
		te := end(t, h.run("hi"))
		if te.Reason != agent.ReasonError || te.Err == nil || te.Kind != agent.KindStreamCut {
			t.Fatalf("TurnEnd = %+v, want a stream_cut error", te)
		}
		h.srv.Enqueue(providertest.Reply{Text: "ok"})
		if te := end(t, h.run("again")); te.Reason != agent.ReasonDone {
			t.Fatalf("next turn ended %s: %v", te.Reason, te.Err)
		}
		h.checkValid()
	})
}

func TestSteering(t *testing.T) {
	h := newHarness(t)
	release := make(chan struct{})
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if r.Last().Role == "user" && r.Last().Content == "start" {
			<-release
			return calls(call("bash", `{"command":"true"}`))
		}
		return providertest.Reply{Text: "answered: " + r.LastUser()}
	})
	ch := h.ag.Run(context.Background(), "start")
	if _, ok := h.ag.Steer("also do X"); !ok {
		t.Fatal("Steer refused while a turn runs")
	}
	close(release)
	evs := drain(ch)
	te := end(t, evs)
	if te.Reason != agent.ReasonDone || len(te.Undelivered) != 0 {
		t.Fatalf("TurnEnd = %+v", te)
	}
	delivered := false
	for _, ev := range evs {
		if s, ok := ev.(agent.SteerDelivered); ok && s.Text == "also do X" {
			delivered = true
		}
	}
	if !delivered || !strings.Contains(text(evs), "answered: also do X") {
		t.Errorf("steer not delivered: %q", text(evs))
	}
	if _, ok := h.ag.Steer("late"); ok {
		t.Error("Steer accepted a message with no turn running")
	}
	h.checkValid()
}

func TestUndeliveredSteerReturned(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(providertest.Reply{Text: "thinking", Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := h.ag.Run(ctx, "go")
	var evs []agent.Event
	for ev := range ch {
		evs = append(evs, ev)
		if _, ok := ev.(agent.TextDelta); ok && len(evs) < 3 {
			h.ag.Steer("one")
			h.ag.Steer("two")
			cancel()
		}
	}
	te := end(t, evs)
	if te.Reason != agent.ReasonInterrupted || strings.Join(te.Undelivered, ",") != "one,two" {
		t.Fatalf("TurnEnd = %+v, want interrupted with both messages undelivered", te)
	}
}

func TestApprovals(t *testing.T) {
	cases := []struct {
		name    string
		mode    agent.ApprovalMode
		answer  *agent.Approval
		ran     bool
		wantOut string
	}{
		{"allow once", agent.ApproveAsk, &agent.Approval{Allow: true}, true, "approved-run"},
		{"deny with reason", agent.ApproveAsk, &agent.Approval{Reason: "not on main"}, false, "The user said: not on main"},
		{"headless refuses", agent.ApproveNone, nil, false, "--yolo"},
		{"yolo", agent.ApproveAll, nil, true, "approved-run"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, func(cfg *agent.Config) { cfg.Approval = c.mode })
			h.srv.Enqueue(calls(call("bash", `{"command":"echo approved-run > ran.txt; echo approved-run"}`)), providertest.Reply{Text: "ok"})
			asked := false
			var evs []agent.Event
			for ev := range h.ag.Run(context.Background(), "run it") {
				evs = append(evs, ev)
				if req, ok := ev.(agent.ApprovalRequest); ok {
					asked = true
					if req.Tool != "bash" || !strings.Contains(req.Detail, "echo approved-run") {
						t.Errorf("request = %+v", req)
					}
					req.Reply <- *c.answer
				}
			}
			end(t, evs)
			if asked != (c.answer != nil) {
				t.Errorf("asked = %v", asked)
			}
			_, err := os.Stat(filepath.Join(h.dir, "ran.txt"))
			if (err == nil) != c.ran {
				t.Errorf("command ran = %v, want %v", err == nil, c.ran)
			}
			if out := toolEnds(evs)[0].Output; !strings.Contains(out, c.wantOut) {
				t.Errorf("result = %q, want %q", out, c.wantOut)
			}
			h.checkValid()
		})
	}
}

func TestApprovalAlwaysAndInterrupt(t *testing.T) {
	h := newHarness(t, func(cfg *agent.Config) { cfg.Approval = agent.ApproveAsk })
	h.srv.Enqueue(calls(call("bash", `{"command":"true"}`)), calls(call("bash", `{"command":"true"}`)), providertest.Reply{Text: "ok"})
	asks := 0
	for ev := range h.ag.Run(context.Background(), "twice") {
		if req, ok := ev.(agent.ApprovalRequest); ok {
			asks++
			req.Reply <- agent.Approval{Allow: true, Always: true}
		}
	}
	if asks != 1 {
		t.Errorf("asked %d times, want 1 after allowing bash for the session", asks)
	}
	// An interrupt while waiting for approval ends the turn cleanly.
	h2 := newHarness(t, func(cfg *agent.Config) { cfg.Approval = agent.ApproveAsk })
	h2.ag.SetMode(agent.ModeAsk) // auto mode writes inside the workspace without asking
	h2.srv.Enqueue(calls(call("write_file", `{"path":"x","content":"y"}`)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var evs []agent.Event
	for ev := range h2.ag.Run(ctx, "write") {
		evs = append(evs, ev)
		if _, ok := ev.(agent.ApprovalRequest); ok {
			cancel()
		}
	}
	if te := end(t, evs); te.Reason != agent.ReasonInterrupted {
		t.Fatalf("turn ended %s, want interrupted", te.Reason)
	}
	h2.srv.Enqueue(providertest.Reply{Text: "ok"})
	end(t, h2.run("next"))
	h2.checkValid()
}

func TestRoundCap(t *testing.T) {
	h := newHarness(t, func(cfg *agent.Config) { cfg.MaxRounds = 2 })
	h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"a","status":"pending"}]}`)), calls(call("todo", `{"items":[{"id":"1","text":"a","status":"pending"}]}`)))
	te := end(t, h.run("loop"))
	if te.Reason != agent.ReasonError || !strings.Contains(te.Error, "2 model calls") || te.Kind != agent.KindRoundCap {
		t.Fatalf("TurnEnd = %+v, want the cap error", te)
	}
}

func TestSubagentApprovalUnwrapped(t *testing.T) {
	h := newHarness(t, func(cfg *agent.Config) { cfg.Approval = agent.ApproveAsk })
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		child := strings.HasPrefix(r.Messages[1].Content, "CHILD")
		switch {
		case child && r.Last().Role == "user":
			return calls(call("bash", `{"command":"echo child-ran"}`))
		case child:
			return providertest.Reply{Text: "child: " + r.Last().Content}
		case r.Last().Role == "user":
			return calls(call("task", `{"description":"d","prompt":"CHILD go"}`))
		}
		return providertest.Reply{Text: "done"}
	})
	asked := 0
	var evs []agent.Event
	for ev := range h.ag.Run(context.Background(), "delegate") {
		evs = append(evs, ev)
		if req, ok := ev.(agent.ApprovalRequest); ok {
			asked++
			req.Reply <- agent.Approval{Allow: true}
		}
	}
	if te := end(t, evs); te.Reason != agent.ReasonDone || asked != 1 {
		t.Fatalf("ended %s (%v) after %d approval requests, want done after 1", te.Reason, te.Err, asked)
	}
	if out := toolEnds(evs)[0].Output; !strings.Contains(out, "child-ran") {
		t.Errorf("task result = %q, want the child's report of its approved command", out)
	}
	h.checkValid()
}
