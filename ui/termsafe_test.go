package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

// hostile are payloads a prompt-injected model or a hostile server sends to
// take over the terminal.
var hostile = []string{
	"\x1b]52;c;cm0gLXJmIH4K\x07",         // OSC 52: write the clipboard
	"\x1b]8;;https://evil.example\x1b\\", // OSC 8: a fake link
	"\x1b[2J\x1b[H",                      // clear the screen
	"\x1b[8m",                            // conceal
	"\u009b2J",                           // C1 CSI
	"\u009d0;title\u009c",                // C1 OSC
	"\u202e",                             // bidi override
	"\u2066",                             // bidi isolate
	"\u200b",                             // zero width space
}

// attack returns word with every hostile payload around it.
func attack(word string) string {
	return strings.Join(hostile, word) + word
}

// frameProblem returns what in a raw frame a terminal would act on beyond
// the styling the TUI draws itself, or "" (see screenProblem; the frame's
// size is not checked here).
func frameProblem(frame string) string {
	return screenProblem(frame, 1<<20, 1<<20)
}

// deliver puts evs on the running turn's channel and hands them to the
// model the way the app does (waitEvents), then repaints.
func deliver(t *testing.T, m *Model, a *scriptAgent, evs ...agent.Event) {
	t.Helper()
	for _, ev := range evs {
		a.last().ch <- ev
	}
	msg := waitEvents(m.turn.id, m.turn.ch)()
	update(m, msg, paintMsg{})
}

// TestViewIsSafe sends every kind of model-, tool- and server-chosen text
// with terminal attacks through the app and checks the raw frames.
func TestViewIsSafe(t *testing.T) {
	m, a := newTestModel(t, 120, 40)
	m.clock = func() time.Time { return time.Unix(1000, 0) }
	submit(m, "hi "+attack("pasted"))
	list := todo.List{Goal: attack("goal"), Items: []todo.Item{
		{ID: "1", Text: attack("item"), Status: todo.InProgress, ActiveForm: attack("doing")},
		{ID: "2", Text: "x", Status: todo.Cancelled, Note: attack("note")},
	}}
	check := func(step string) {
		t.Helper()
		frame := m.View().Content
		if p := frameProblem(frame); p != "" {
			t.Fatalf("%s: the frame holds a %s:\n%q", step, p, frame)
		}
	}
	check("user text")
	deliver(t, m, a,
		agent.ReasoningDelta{Text: attack("thinking")},
		agent.TextDelta{Text: attack("streaming")},
	)
	check("streaming")
	deliver(t, m, a,
		agent.AssistantDone{Text: attack("streaming")},
		agent.TodoUpdate{List: list},
		agent.ToolStart{ID: "c1", Name: attack("tool"), Args: "{}", Summary: attack("summary")},
		agent.ToolEnd{ID: "c1", Name: attack("tool"), Output: attack("output")},
		agent.Retry{Attempt: 1, Max: 3, Wait: time.Second, Err: attack("server body")},
		agent.Notice{Text: attack("notice")},
		agent.ToolStart{ID: "c2", Name: "bash", Args: "{}", Summary: attack("command")},
	)
	check("tools, todo list, notices")
	deliver(t, m, a, agent.ApprovalRequest{ID: "c2", Tool: "bash", Summary: attack("command"), Detail: attack("detail"), Scope: attack("scope"), Reply: make(chan agent.Approval, 1)})
	check("approval dialog")
	if s := screen(m); !strings.Contains(s, "⟨U+202E⟩") {
		t.Fatalf("the bidi override is not shown visibly:\n%s", s)
	}
	press(m, "n")
	deliver(t, m, a,
		agent.ToolEnd{ID: "c2", Name: "bash", Output: attack("denied"), IsError: true},
		agent.TextDelta{Text: attack("answer")},
		agent.AssistantDone{Text: "# " + attack("answer") + "\n\n```\n" + attack("code") + "\n```\n", Final: true},
		agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New(attack("error body"))},
	)
	check("answer and error")
	for _, want := range []string{"summary", "item", "notice", "answer", "error body"} {
		if !strings.Contains(screen(m), want) {
			t.Errorf("the screen lost the visible text %q:\n%s", want, screen(m))
		}
	}
}

// TestPasteIsSafe: pasted text reaches the input (and the chat) without
// its control sequences, with its line breaks.
func TestPasteIsSafe(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	update(m, tea.PasteMsg{Content: "line one\r\n\x1b]52;c;cm0gLXJmIH4K\x07line \x1b[2Jtwo \u202Eevil"})
	if p := frameProblem(m.View().Content); p != "" {
		t.Fatalf("the input shows a %s", p)
	}
	press(m, "enter")
	if got := a.last().prompt; got != "line one\nline two ⟨U+202E⟩evil" {
		t.Fatalf("sent %q", got)
	}
	if p := frameProblem(m.View().Content); p != "" {
		t.Fatalf("the chat shows a %s", p)
	}
}

// TestSplitSequenceGoesWhole: an escape sequence split between two text
// deltas is removed whole from the finished answer, not left as text.
func TestSplitSequenceGoesWhole(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "hi")
	deliver(t, m, a, agent.TextDelta{Text: "Done \x1b]52;c;cm0g"}, agent.TextDelta{Text: "LXJmIH4K\x07 and \x1b"}, agent.TextDelta{Text: "[8mhidden\x1b[0m.\n"})
	if p := frameProblem(m.View().Content); p != "" {
		t.Fatalf("streaming: the frame holds a %s", p)
	}
	deliver(t, m, a, agent.AssistantDone{Text: "Done \x1b]52;c;cm0gLXJmIH4K\x07 and \x1b[8mhidden\x1b[0m.\n", Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	s := screen(m)
	if !strings.Contains(s, "Done  and hidden.") || strings.Contains(s, "52;c") || strings.Contains(s, "[8m") {
		t.Fatalf("the answer is not clean:\n%s", s)
	}
}

// TestReplayIsSafe: a resumed session (its file is as untrusted as the
// model that wrote it) shows no control sequence either.
func TestReplayIsSafe(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	list := todo.List{Goal: attack("goal"), Items: []todo.Item{{ID: "1", Text: attack("item"), Status: todo.InProgress}}}
	update(m, ResetMsg{History: []agent.Event{
		agent.UserMessage{Text: attack("prompt")},
		agent.ToolStart{ID: "c1", Name: attack("tool"), Args: "{}", Summary: attack("summary")},
		agent.ToolEnd{ID: "c1", Name: attack("tool"), Output: attack("output")},
		agent.TodoUpdate{List: list},
		agent.AssistantDone{Text: attack("answer"), Final: true},
	}, Todos: list})
	if p := frameProblem(m.View().Content); p != "" {
		t.Fatalf("the replayed session shows a %s:\n%q", p, m.View().Content)
	}
	if s := screen(m); !strings.Contains(s, "summary") || !strings.Contains(s, "answer") {
		t.Fatalf("the replay lost its text:\n%s", s)
	}
}
