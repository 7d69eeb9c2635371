package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
)

// TestTabIdleNeverSends: tab on an idle screen sends nothing, whatever is
// typed; it says what it does instead.
func TestTabIdleNeverSends(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	typeText(m, "fix the build")
	press(m, "tab")
	if p := a.prompts(); len(p) != 0 {
		t.Fatalf("tab sent %q", p)
	}
	if v := m.input.Value(); v != "fix the build" {
		t.Fatalf("input %q after tab", v)
	}
	if s := screen(m); !strings.Contains(s, "tab completes /commands") {
		t.Fatalf("no hint for tab:\n%s", s)
	}
	// While a turn runs, tab still queues.
	press(m, "enter")
	typeText(m, "next")
	press(m, "tab")
	if len(m.handed.queued) != 1 || m.handed.queued[0] != "next" {
		t.Fatalf("queued %q, want [next]", m.handed.queued)
	}
}

// newCommandModel is a model with the /sessions picker and an extra
// command with a description.
func newCommandModel(t *testing.T) (*Model, *scriptAgent) {
	a := &scriptAgent{}
	mv := New(Config{
		Agent:       a,
		Commands:    map[string]func() tea.Cmd{"new": func() tea.Cmd { return nil }},
		CommandHelp: map[string]string{"/new": "start a new conversation"},
		Services:    fakeServices{sessions: func() ([]SessionInfo, error) { return nil, nil }},
	})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	return m, a
}

// TestSlashCompletion: / lists every command with its description; tab
// completes the selected one and leaves a space after it; ↑/↓ select;
// enter runs the selection; esc closes the list.
func TestSlashCompletion(t *testing.T) {
	m, a := newCommandModel(t)
	typeText(m, "/")
	s := screen(m)
	for _, want := range []string{"/compact", "summarise old messages", "/new", "start a new conversation", "/help"} { // the list scrolls: /sessions is found with /se below
		if !strings.Contains(s, want) {
			t.Fatalf("/ popup lacks %q:\n%s", want, s)
		}
	}
	typeText(m, "se")
	press(m, "tab")
	if v := m.input.Value(); v != "/sessions " {
		t.Fatalf("/se + tab = %q, want \"/sessions \" (a space to type on)", v)
	}
	if len(a.prompts()) != 0 {
		t.Fatal("tab sent something")
	}
	typeText(m, "calc.go") // the argument goes after the space
	if v := m.input.Value(); v != "/sessions calc.go" {
		t.Fatalf("/se + tab + calc.go = %q, want \"/sessions calc.go\"", v)
	}

	m.input.Reset()
	typeText(m, "/")
	press(m, "down") // /compact is first
	press(m, "tab")
	if v, want := m.input.Value(), m.commandNames()[1]+" "; v != want {
		t.Fatalf("down + tab = %q, want %q", v, want)
	}

	m.input.Reset()
	typeText(m, "/he")
	press(m, "enter")
	if overlayOf[*dialog.Help](m) == nil {
		t.Fatal("enter on /he did not run /help")
	}
	press(m, "x")

	typeText(m, "/n")
	press(m, "esc")
	if s := screen(m); strings.Contains(s, "start a new conversation") {
		t.Fatalf("esc did not close the popup:\n%s", s)
	}
	if v := m.input.Value(); v != "/n" {
		t.Fatalf("esc changed the input to %q", v)
	}
}

// TestPasteNormalized: CR and CRLF in a paste become LF before the text is
// shown or sent, for small and folded large pastes alike.
func TestPasteNormalized(t *testing.T) {
	tests := []struct{ name, paste, want string }{
		{"crlf", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"cr", "one\rtwo\rthree", "one\ntwo\nthree"},
		{"large", strings.Repeat("line\r\n", 30), strings.Repeat("line\n", 30)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, a := newTestModel(t, 100, 30)
			update(m, tea.PasteMsg{Content: tt.paste})
			if strings.Contains(screen(m), "\r") {
				t.Fatal("a CR reached the screen")
			}
			press(m, "enter")
			p := a.prompts()
			if len(p) != 1 || p[0] != tt.want {
				t.Fatalf("sent %q, want %q", p, tt.want)
			}
		})
	}
}

// TestCtrlCD: ctrl+c on an empty idle input asks for a second press (said
// on screen; another key in between starts over); ctrl+d on an empty idle
// input quits, and does not otherwise.
func TestCtrlCD(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	if isQuit(press(m, "ctrl+c")) {
		t.Fatal("one ctrl+c quit")
	}
	if s := screen(m); !strings.Contains(s, "ctrl+c again to quit") {
		t.Fatalf("no word about a second ctrl+c:\n%s", s)
	}
	press(m, "pgup")
	if isQuit(press(m, "ctrl+c")) {
		t.Fatal("ctrl+c, pgup, ctrl+c quit")
	}
	if !isQuit(press(m, "ctrl+c")) {
		t.Fatal("a second ctrl+c did not quit")
	}

	m, _ = newTestModel(t, 100, 30)
	typeText(m, "x")
	if isQuit(press(m, "ctrl+d")) {
		t.Fatal("ctrl+d quit with text in the input")
	}
	submit(m, "work")
	m.input.Reset()
	if isQuit(press(m, "ctrl+d")) {
		t.Fatal("ctrl+d quit while a turn runs")
	}
	m, _ = newTestModel(t, 100, 30)
	if !isQuit(press(m, "ctrl+d")) {
		t.Fatal("ctrl+d on an empty idle input did not quit")
	}
}

// retryAgent is a scriptAgent that can retry a failed turn.
type retryAgent struct {
	scriptAgent
	failed  bool
	retries int
}

func (a *retryAgent) CanRetry() bool { return a.failed }

func (a *retryAgent) Retry(ctx context.Context) <-chan agent.Event {
	a.retries++
	a.failed = false
	return a.Compact(ctx) // a run the test drives; not a prompt
}

// TestRetry: after a failed turn the hint names ctrl+r; ctrl+r sends the
// turn again through Retry, without a second user message in the chat.
func TestRetry(t *testing.T) {
	a := &retryAgent{}
	mv := New(Config{Agent: a})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	submit(m, "fix the build")
	a.failed = true
	endTurn(t, m, &a.scriptAgent, agent.TurnEnd{Reason: agent.ReasonError, Error: "500 server error"})
	if s := screen(m); !strings.Contains(s, "ctrl+r") {
		t.Fatalf("the error hint does not name the retry:\n%s", s)
	}
	press(m, "ctrl+r")
	if a.retries != 1 || m.turn == nil {
		t.Fatalf("ctrl+r: %d retries, turn %v", a.retries, m.turn)
	}
	if p := a.prompts(); len(p) != 1 {
		t.Fatalf("prompts %q: the retry sent a second message", p)
	}
	events(t, m, agent.TextDelta{Text: "Fixed."})
	endTurn(t, m, &a.scriptAgent, agent.TurnEnd{Reason: agent.ReasonDone})
	if n := strings.Count(screen(m), "fix the build"); n != 1 {
		t.Fatalf("the prompt shows %d times:\n%s", n, screen(m))
	}
	press(m, "ctrl+r")
	if a.retries != 1 || !strings.Contains(screen(m), "nothing to retry") {
		t.Fatalf("ctrl+r after a good turn: %d retries\n%s", a.retries, screen(m))
	}
}

// TestUpEnterRetries: ↑ then enter on a failed turn's prompt sends it
// again as a retry (as ctrl+r), not as a second copy of the message; a
// different prompt is a new turn.
func TestUpEnterRetries(t *testing.T) {
	a := &retryAgent{}
	mv := New(Config{Agent: a})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	submit(m, "fix the build")
	a.failed = true
	endTurn(t, m, &a.scriptAgent, agent.TurnEnd{Reason: agent.ReasonError, Error: "500 server error"})
	press(m, "up")
	if v := m.input.Value(); v != "fix the build" {
		t.Fatalf("↑ recalled %q", v)
	}
	press(m, "enter")
	if a.retries != 1 || m.turn == nil {
		t.Fatalf("↑ enter: %d retries, turn %v", a.retries, m.turn)
	}
	if p := a.prompts(); len(p) != 1 {
		t.Fatalf("prompts %q: ↑ enter sent a second copy", p)
	}
	if v := m.input.Value(); v != "" {
		t.Errorf("the input still holds %q", v)
	}
	endTurn(t, m, &a.scriptAgent, agent.TurnEnd{Reason: agent.ReasonDone})
	if n := strings.Count(screen(m), "fix the build"); n != 1 {
		t.Fatalf("the prompt shows %d times:\n%s", n, screen(m))
	}
	press(m, "up") // after a good turn the same text is a new message
	press(m, "enter")
	if p := a.prompts(); len(p) != 2 || a.retries != 1 {
		t.Fatalf("after a good turn: prompts %q, %d retries", p, a.retries)
	}
}

// TestUserTextSanitized: control sequences in user text (a paste, a
// restored session) never reach the terminal from the chat.
func TestUserTextSanitized(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	update(m, tea.PasteMsg{Content: "look \x1b]0;title\x07at \x1b[2Jthis"})
	press(m, "enter")
	mv := New(Config{Agent: a, History: agent.Replay([]provider.Message{{Role: provider.RoleUser, Content: "old \x1b]0;title\x07prompt \x1b[2J"}})})
	update(&mv, tea.WindowSizeMsg{Width: 100, Height: 30})
	for _, v := range []string{m.View().Content, mv.View().Content} {
		if strings.Contains(v, "\x1b]") || strings.Contains(v, "\x07") || strings.Contains(v, "\x1b[2J") {
			t.Fatalf("a control sequence of user text reached the screen: %q", v)
		}
	}
	if p := a.prompts(); len(p) != 1 {
		t.Fatalf("prompts %q", p)
	}
}
