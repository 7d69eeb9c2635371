package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// conversation renders the conversation of m's chat (user messages, answers,
// tool calls; not notices, which say how the screen came to be) with
// durations left out: a saved session does not keep them.
func conversation(m *Model) string {
	// The first entry has no gap above it: on a live screen it comes after
	// the welcome line, on a resumed one it is first.
	return m.chat.Transcript(func(string) bool { return true })
}

// TestReplayRendersLikeLive runs a turn live through the real agent, then
// shows its saved history in a new model through agent.Replay: both go
// through the same event handler and render the same transcript.
func TestReplayRendersLikeLive(t *testing.T) {
	srv := providertest.New(t)
	todoArgs := func(s1, s2 string) string {
		return `{"goal":"Greet","items":[{"id":"1","text":"Say hi","status":"` + s1 + `"},{"id":"2","text":"Report","status":"` + s2 + `"}]}`
	}
	srv.Enqueue(
		providertest.Reply{Text: "Planning **first**.", ToolCalls: []providertest.Call{{Name: "todo", Args: todoArgs("in_progress", "pending")}}},
		providertest.Reply{ToolCalls: []providertest.Call{
			{Name: "bash", Args: `{"command":"echo hi"}`},
			{Name: "read_file", Args: `{"path":"missing.txt"}`},
		}},
		providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: `{"items":[{"id":"1","text":"x","status":"sideways"}]}`}}},
		providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: todoArgs("completed", "completed")}}},
		providertest.Reply{Text: "All **done**:\n\n- one\n- two"},
	)
	live := newAgentModel(t, srv, agent.ApproveAll)
	submit(live, "greet me")
	pump(t, live, idle(live))
	ag := live.cfg.Agent.(*agent.Agent)

	mv := New(Config{Agent: ag, Dark: true, History: agent.Replay(ag.History()), Todos: ag.Todos()})
	resumed := &mv
	update(resumed, tea.WindowSizeMsg{Width: 120, Height: 40})

	want, got := conversation(live), conversation(resumed)
	if got != want {
		t.Fatalf("the resumed transcript differs from the live one\nlive:\n%s\nresumed:\n%s", want, got)
	}
	for _, s := range []string{"› greet me", "Planning first.", "bash  echo hi", "read_file  missing.txt", "Plan · rejected", "Plan · 2/2 done", "All done:"} {
		if !strings.Contains(ansi.Strip(want), s) {
			t.Errorf("the transcript lacks %q:\n%s", s, want)
		}
	}
	if !strings.Contains(screen(resumed), "Greet 2/2") && !strings.Contains(screen(resumed), "Plan 2/2") {
		t.Errorf("the resumed panel does not show the list collapsed:\n%s", screen(resumed))
	}
}

// TestResumedInterruptedCall: a call cut short by an interrupt (its output
// ends with the interrupted wording) shows as failed, not as a success.
func TestResumedInterruptedCall(t *testing.T) {
	hist := []provider.Message{
		{Role: provider.RoleUser, Content: "run it"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "a", Name: "bash", Arguments: `{"command":"make test"}`}}},
		{Role: provider.RoleTool, ToolCallID: "a", Content: "ok 1\nok 2\n" + provider.Interrupted},
	}
	mv := New(Config{Agent: &scriptAgent{}, History: agent.Replay(hist)})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	s := screen(m)
	if !strings.Contains(s, "✗ bash  make test") || strings.Contains(s, "● bash") {
		t.Fatalf("the interrupted call does not show as failed:\n%s", s)
	}
}
