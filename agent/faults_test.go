package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// reminderRounds returns, for each reminder in history, how many
// assistant messages with tool calls came before it.
func reminderRounds(history []provider.Message) []int {
	var out []int
	rounds := 0
	for _, m := range history {
		switch {
		case m.Role == provider.RoleAssistant && len(m.ToolCalls) > 0:
			rounds++
		case m.Role == provider.RoleUser && m.Content == todo.Reminder:
			out = append(out, rounds)
		}
	}
	return out
}

// TestNag checks when the todo reminder comes: after three tool rounds in
// a row without a todo call, counted again from zero after a todo call or
// a reminder.
func TestNag(t *testing.T) {
	const list = `{"items":[{"id":"1","text":"a","status":"in_progress"}]}`
	tests := []struct {
		name   string
		rounds string // one letter per tool round: b(ash) or t(odo)
		want   []int  // reminders, after that many rounds
	}{
		{"three rounds without todo", "bbb", []int{3}},
		{"two rounds are not enough", "bb", nil},
		{"a todo call resets the count", "bbtbb", nil},
		{"counted from the todo call", "bbtbbb", []int{6}},
		{"a reminder resets the count", "bbbbbb", []int{3, 6}},
		{"todo alongside bash counts as todo", "bbTbb", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, noReminder) // the list stays open
			for i, r := range tt.rounds {
				bash := call("bash", fmt.Sprintf(`{"command":"echo %d"}`, i))
				switch r {
				case 'b':
					h.srv.Enqueue(calls(bash))
				case 't':
					h.srv.Enqueue(calls(call("todo", list)))
				case 'T':
					h.srv.Enqueue(calls(bash, call("todo", list)))
				}
			}
			h.srv.Enqueue(providertest.Reply{Text: "done"})
			if te := end(t, h.run("go")); te.Reason != agent.ReasonDone {
				t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
			}
			if got := reminderRounds(h.ag.History()); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("reminders after rounds %v, want %v", got, tt.want)
			}
			h.checkValid()
		})
	}
}

// TestSteersBeforeOneCall hands two messages to the turn before its next
// model call: both are delivered, in order, with the ids Steer returned.
func TestSteersBeforeOneCall(t *testing.T) {
	h := newHarness(t)
	release := make(chan struct{})
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if r.Last().Role == "user" && r.Last().Content == "start" {
			<-release
			return calls(call("bash", `{"command":"true"}`))
		}
		return providertest.Reply{Text: "answered"}
	})
	ch := h.ag.Run(context.Background(), "start")
	id1, ok1 := h.ag.Steer("first")
	id2, ok2 := h.ag.Steer("second")
	if !ok1 || !ok2 || id1 <= 0 || id2 == id1 {
		t.Fatalf("Steer = (%d, %v), (%d, %v); want two distinct ids", id1, ok1, id2, ok2)
	}
	close(release)
	evs := drain(ch)
	if te := end(t, evs); te.Reason != agent.ReasonDone || len(te.Undelivered) != 0 {
		t.Fatalf("TurnEnd = %+v", te)
	}
	var got []string
	for _, ev := range evs {
		if s, ok := ev.(agent.SteerDelivered); ok {
			got = append(got, fmt.Sprintf("%d:%s", s.ID, s.Text))
		}
	}
	if want := fmt.Sprintf("%d:first %d:second", id1, id2); strings.Join(got, " ") != want {
		t.Errorf("delivered %q, want %q", got, want)
	}
	reqs := h.srv.Requests()
	last := reqs[len(reqs)-1].Messages
	if n := len(last); n < 2 || last[n-2].Content != "first" || last[n-1].Content != "second" {
		t.Errorf("the last request does not end with both messages: %+v", last)
	}
	h.checkValid()
}

// TestRestoreRepairs restores a history whose last tool call has no result
// (a crash): the agent answers it as interrupted, so the next request is
// valid for a strict server.
func TestRestoreRepairs(t *testing.T) {
	h := newHarness(t)
	broken := []provider.Message{
		{Role: provider.RoleUser, Content: "run it"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"sleep 9"}`}}},
	}
	if err := h.ag.Restore(broken, todo.List{}); err != nil {
		t.Fatal(err)
	}
	hist := h.ag.History()
	if len(hist) != 3 || hist[2].Role != provider.RoleTool || hist[2].ToolCallID != "c1" || hist[2].Content != provider.Interrupted {
		t.Fatalf("restored history = %+v, want the call answered as interrupted", hist)
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	if te := end(t, h.run("go on")); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
}

// TestNagNoticeNeedsAPlan: the reminder's notice shows only on a turn with
// a plan whose items are open; a turn with no plan gets none.
func TestNagNoticeNeedsAPlan(t *testing.T) {
	for _, withPlan := range []bool{false, true} {
		h := newHarness(t, noReminder)
		if withPlan {
			h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"a","status":"in_progress"}]}`)))
		}
		for i := range 3 {
			h.srv.Enqueue(calls(call("bash", fmt.Sprintf(`{"command":"echo %d"}`, i))))
		}
		h.srv.Enqueue(providertest.Reply{Text: "done"})
		shown := false
		for _, ev := range h.run("go") {
			if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, "reminded the model") {
				shown = true
			}
		}
		if shown != withPlan {
			t.Errorf("with a plan %v: notice shown %v", withPlan, shown)
		}
	}
}
