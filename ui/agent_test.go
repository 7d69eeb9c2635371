package ui

import (
	"strconv"

	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// These tests run the real agent against the fake OpenAI-compatible server
// over HTTP and feed its events through the model with the same command
// the program uses (waitEvents).

// newAgentModel returns a 120×40 model on a real agent talking to srv.
func newAgentModel(t *testing.T, srv *providertest.Server, mode agent.ApprovalMode) *Model {
	t.Helper()
	client, err := provider.New(provider.Config{BaseURL: srv.URL, Model: "fake", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{Model: client, Workspace: t.TempDir(), Approval: mode})
	if err != nil {
		t.Fatal(err)
	}
	mv := New(Config{Agent: ag, Model: "fake", Dark: true})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	return m
}

// pump feeds event batches to m until stop returns true or the turn's
// channel closes. It fails after 10 s.
func pump(t *testing.T, m *Model, stop func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for m.turn != nil && !stop() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out; screen:\n%s", screen(m))
		}
		got := make(chan tea.Msg, 1)
		go func(cmd tea.Cmd) { got <- cmd() }(waitEvents(m.turn.id, m.turn.ch))
		select {
		case msg := <-got:
			update(m, msg, paintMsg{})
		case <-time.After(time.Until(deadline)):
			t.Fatalf("timed out waiting for events; screen:\n%s", screen(m))
		}
	}
}

func idle(m *Model) func() bool { return func() bool { return m.turn == nil } }

func TestAgentPlanApproveAndCollapse(t *testing.T) {
	srv := providertest.New(t)
	todoArgs := func(s1, s2 string) string {
		return `{"goal":"Greet","items":[{"id":"1","text":"Say hi","status":"` + s1 + `","active_form":"Saying hi"},{"id":"2","text":"Report","status":"` + s2 + `"}]}`
	}
	srv.Enqueue(
		providertest.Reply{Text: "Planning.", ToolCalls: []providertest.Call{{Name: "todo", Args: todoArgs("in_progress", "pending")}}},
		providertest.Reply{ToolCalls: []providertest.Call{{Name: "bash", Args: `{"command":"echo hi"}`}}},
		providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: todoArgs("completed", "completed")}}},
		providertest.Reply{Text: "All **done**."},
	)
	m := newAgentModel(t, srv, agent.ApproveAsk)
	submit(m, "greet me")

	pump(t, m, func() bool { return m.approvalQueue() != nil })
	s := screen(m)
	for _, want := range []string{"Greet 0/2", "Saying hi", "Plan · 0/2 done", "Allow bash?", "echo hi"} {
		if !strings.Contains(s, want) {
			t.Fatalf("before approval, screen lacks %q:\n%s", want, s)
		}
	}
	pause(m)
	press(m, "y")
	pump(t, m, idle(m))
	s = screen(m)
	for _, want := range []string{"● bash  echo hi", "⎿ hi", "Plan · 2/2 done", "All done.", "Plan 2/2 · all done", "/128k · "} {
		if !strings.Contains(s, want) {
			t.Fatalf("after the turn, screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "Saying hi") {
		t.Fatalf("panel still expanded:\n%s", s)
	}
	if errs := srv.Errors(); len(errs) > 0 {
		t.Fatalf("invalid requests: %v", errs)
	}
}

func TestAgentInterruptAndFollowUp(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		providertest.Reply{Text: "This answer never ends", Hang: true},
		providertest.Reply{Text: "Back again."},
	)
	m := newAgentModel(t, srv, agent.ApproveAll)
	submit(m, "talk")
	pump(t, m, func() bool { return strings.Contains(screen(m), "This") })
	typeText(m, "not sent yet")
	press(m, "esc")
	pump(t, m, idle(m))
	s := screen(m)
	if !strings.Contains(s, "Interrupted") {
		t.Fatalf("no interrupted notice:\n%s", s)
	}
	if got := m.input.Value(); got != "not sent yet" {
		t.Fatalf("input after interrupt = %q", got)
	}
	press(m, "enter")
	pump(t, m, idle(m))
	if !strings.Contains(screen(m), "Back again.") {
		t.Fatalf("follow-up answer missing:\n%s", screen(m))
	}
	if errs := srv.Errors(); len(errs) > 0 {
		t.Fatalf("invalid requests after the interrupt: %v", errs)
	}
}

func TestAgentErrorKeepsAppUsable(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		providertest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided"}}`},
		providertest.Reply{Text: "Works now."},
	)
	m := newAgentModel(t, srv, agent.ApproveAll)
	submit(m, "hello")
	pump(t, m, idle(m))
	s := screen(m)
	if !strings.Contains(s, "Error") || !strings.Contains(s, "OPENAI_API_KEY") {
		t.Fatalf("no clear error block:\n%s", s)
	}
	press(m, "up")
	press(m, "enter")
	pump(t, m, idle(m))
	if !strings.Contains(screen(m), "Works now.") {
		t.Fatalf("retry after the error failed:\n%s", screen(m))
	}
}

// talk sends n prompts to the real agent, each answered by the server.
func talk(t *testing.T, m *Model, srv *providertest.Server, n int) {
	t.Helper()
	for i := range n {
		srv.Enqueue(providertest.Reply{Text: "Answer " + strconv.Itoa(i) + "."})
		submit(m, "question "+strconv.Itoa(i))
		pump(t, m, idle(m))
	}
}

func TestAgentCompactCommand(t *testing.T) {
	srv := providertest.New(t)
	m := newAgentModel(t, srv, agent.ApproveAll)
	talk(t, m, srv, 3)

	srv.Enqueue(providertest.Reply{Text: "Summary: the user asked three questions.", ChunkDelay: 5 * time.Millisecond})
	submit(m, "/compact")
	if st := lastLine(screen(m)); !strings.Contains(st, "compacting") {
		t.Fatalf("status bar during /compact: %s", st)
	}
	pump(t, m, idle(m))
	s := screen(m)
	if !strings.Contains(s, "── compacted: ") || !strings.Contains(s, " tokens ──") {
		t.Fatalf("no compaction marker:\n%s", s)
	}
	if strings.Contains(s, "Error") {
		t.Fatalf("the compaction failed:\n%s", s)
	}

	srv.Enqueue(providertest.Reply{Text: "Still here."})
	submit(m, "question 3")
	pump(t, m, idle(m))
	if !strings.Contains(screen(m), "Still here.") {
		t.Fatalf("no answer after the compaction:\n%s", screen(m))
	}
	reqs := srv.Requests()
	var sent strings.Builder
	for _, msg := range reqs[len(reqs)-1].Messages {
		sent.WriteString(msg.Content + "\n")
	}
	if !strings.Contains(sent.String(), "the user asked three questions") || strings.Contains(sent.String(), "question 0") {
		t.Fatalf("the request after /compact does not hold the summary instead of the old turns:\n%s", sent.String())
	}
	if errs := srv.Errors(); len(errs) > 0 {
		t.Fatalf("invalid requests: %v", errs)
	}
}

func TestAgentCompactInterrupted(t *testing.T) {
	srv := providertest.New(t)
	m := newAgentModel(t, srv, agent.ApproveAll)
	talk(t, m, srv, 3)

	srv.Enqueue(providertest.Reply{Text: "A summary that never ends", Hang: true})
	submit(m, "/compact")
	submit(m, "after compaction") // queued, not steered
	for deadline := time.Now().Add(10 * time.Second); len(srv.Requests()) < 4; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the summary request never reached the server")
		}
	}
	press(m, "esc")
	pump(t, m, idle(m))
	s := screen(m)
	if !strings.Contains(s, "Compaction interrupted") || strings.Contains(s, "── compacted") {
		t.Fatalf("screen after esc during /compact:\n%s", s)
	}
	if got := m.input.Value(); got != "after compaction" {
		t.Fatalf("input after the interrupt = %q", got)
	}
	srv.Enqueue(providertest.Reply{Text: "Answered."})
	press(m, "enter")
	pump(t, m, idle(m))
	if !strings.Contains(screen(m), "Answered.") {
		t.Fatalf("no answer after the interrupted compaction:\n%s", screen(m))
	}
	if errs := srv.Errors(); len(errs) > 0 {
		t.Fatalf("invalid requests: %v", errs)
	}
}
