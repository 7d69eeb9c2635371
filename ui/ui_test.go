package ui

import (
	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/input"
	"strconv"

	"strings"
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

func TestTinyTerminals(t *testing.T) {
	tests := []struct {
		w, h  int
		small bool
	}{
		{0, 0, true}, {1, 1, true}, {0, 40, true}, {40, 0, true}, {2, 50, true}, {200, 3, true},
		{59, 15, true}, {60, 14, true}, {60, 15, false}, {61, 16, false}, {120, 40, false}, {300, 100, false},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.w)+"x"+strconv.Itoa(tt.h), func(t *testing.T) {
			m, a := newTestModel(t, tt.w, tt.h)
			// Exercise every part of the screen at this size.
			submit(m, "go")
			events(t, m, agent.TodoUpdate{List: plan("A goal that is rather long for a tiny screen", "> One", "p Two")},
				agent.ToolStart{ID: "1", Name: "bash", Summary: "echo hi"}, agent.TextDelta{Text: "some text\n\nmore"})
			submit(m, "steer")
			typeText(m, "queued")
			press(m, "tab")
			events(t, m, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "echo hi", Detail: "echo hi", Reply: make(chan agent.Approval, 1)})
			checkFits(t, m, tt.w, tt.h)
			press(m, "y")
			press(m, "?")
			checkFits(t, m, tt.w, tt.h)
			press(m, "x")
			press(m, "ctrl+t")
			endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonError, Error: "boom"})
			checkFits(t, m, tt.w, tt.h)
			s := screen(m)
			flat := strings.ReplaceAll(strings.ReplaceAll(s, "\n", ""), " ", "")
			switch {
			case tt.small && tt.w > 0 && tt.h > 0:
				if flat == "" || !strings.HasPrefix("Terminaltoosmall(", flat[:min(len(flat), 17)]) {
					t.Fatalf("no too-small note at %dx%d:\n%s", tt.w, tt.h, s)
				}
			case tt.small:
				if s != "" {
					t.Fatalf("content on a %dx%d terminal: %q", tt.w, tt.h, s)
				}
			case strings.Contains(s, "too small"):
				t.Fatalf("too-small note at %dx%d", tt.w, tt.h)
			}
		})
	}
}

// checkFits fails when the frame is larger than w×h.
func checkFits(t *testing.T, m *Model, w, h int) {
	t.Helper()
	s := screen(m)
	if s == "" {
		return
	}
	lines := strings.Split(s, "\n")
	if len(lines) > max(h, 0) {
		t.Fatalf("%d lines on a %d-line terminal", len(lines), h)
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > w && stripWidth(l) > w {
			t.Fatalf("line %d is %d wide on a %d-wide terminal: %q", i, stripWidth(l), w, l)
		}
	}
}

func TestFrameHeightIsExact(t *testing.T) {
	for _, size := range [][2]int{{60, 15}, {80, 24}, {119, 30}, {120, 40}, {200, 60}} {
		m, _ := newTestModel(t, size[0], size[1])
		submit(m, "go")
		events(t, m, agent.TodoUpdate{List: plan("G", "> One", "p Two", "p Three")}, agent.TextDelta{Text: strings.Repeat("word ", 400)})
		if n := len(strings.Split(screen(m), "\n")); n != size[1] {
			t.Errorf("%dx%d: frame has %d lines", size[0], size[1], n)
		}
		checkFits(t, m, size[0], size[1])
	}
}

func TestIdleRunsNoTimers(t *testing.T) {
	m, a := newTestModel(t, 80, 24)
	if m.Init() != nil {
		t.Fatal("Init starts a command")
	}
	if cmd := update(m, spinner.TickMsg{}); cmd != nil {
		t.Fatal("a spinner tick re-armed while idle")
	}
	cmd := submit(m, "go")
	if cmd == nil {
		t.Fatal("starting a turn returned no command")
	}
	if cmd := update(m, m.spin.Tick()); cmd == nil {
		t.Fatal("the spinner does not tick while a turn runs")
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if cmd := update(m, m.spin.Tick()); cmd != nil {
		t.Fatal("the spinner still ticks after the turn ended")
	}
	// Typing while idle schedules nothing either.
	typeText(m, "hello")
	if m.paint.pending {
		t.Fatal("typing scheduled a repaint tick")
	}
}

func TestStatusBar(t *testing.T) {
	m, a := newTestModel(t, 130, 24)
	s := screen(m)
	if !strings.Contains(s, "test-model") || !strings.Contains(s, "idle") || strings.Contains(s, "esc to interrupt") {
		t.Fatalf("idle status bar:\n%s", lastLine(s))
	}
	if !strings.Contains(s, input.PlaceholderIdle) {
		t.Fatalf("no placeholder when idle:\n%s", s)
	}
	submit(m, "go")
	events(t, m, agent.ToolStart{ID: "1", Name: "bash", Summary: "make"}, agent.Usage{Usage: provider.Usage{TotalTokens: 1500}, Estimated: true})
	s = lastLine(screen(m))
	for _, want := range []string{"running bash", "esc to interrupt", "~1.5k tokens"} {
		if !strings.Contains(s, want) {
			t.Fatalf("running status bar lacks %q: %s", want, s)
		}
	}
	events(t, m, agent.ToolEnd{ID: "1", Name: "bash"}, agent.Usage{Usage: provider.Usage{TotalTokens: 500}})
	// The context in use is the last call's, not a sum of the calls.
	if s := lastLine(screen(m)); !strings.Contains(s, "thinking") || !strings.Contains(s, " 500 tokens") {
		t.Fatalf("status bar: %s", s)
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if s := lastLine(screen(m)); !strings.Contains(s, "idle") {
		t.Fatalf("status bar after the turn: %s", s)
	}
}

func lastLine(s string) string {
	l := strings.Split(s, "\n")
	return l[len(l)-1]
}

func TestInputKeys(t *testing.T) {
	m, a := newTestModel(t, 80, 24)
	typeText(m, "line one")
	press(m, "ctrl+j")
	typeText(m, "line two")
	update(m, tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift})
	typeText(m, "three")
	if got := m.input.Value(); got != "line one\nline two\nthree" {
		t.Fatalf("newline keys: input = %q", got)
	}
	press(m, "enter")
	if p := a.prompts(); len(p) != 1 || p[0] != "line one\nline two\nthree" {
		t.Fatalf("enter sent %q", p)
	}
	if !m.input.Empty() {
		t.Fatal("input not cleared after sending")
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	submit(m, "second")
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})

	// History on an empty input.
	press(m, "up")
	if got := m.input.Value(); got != "second" {
		t.Fatalf("up: %q", got)
	}
	press(m, "up")
	if got := m.input.Value(); got != "line one\nline two\nthree" {
		t.Fatalf("up up: %q", got)
	}
	press(m, "down")
	press(m, "down")
	if !m.input.Empty() {
		t.Fatalf("down past the newest prompt: %q", m.input.Value())
	}
	// Up on typed text moves the cursor instead of replacing the text.
	typeText(m, "draft")
	press(m, "up")
	if got := m.input.Value(); got != "draft" {
		t.Fatalf("up replaced typed text: %q", got)
	}
}

func TestLargePaste(t *testing.T) {
	m, a := newTestModel(t, 80, 24)
	big := strings.Repeat("a fairly long line of pasted text\n", 5000)
	typeText(m, "look: ")
	update(m, tea.PasteMsg{Content: big})
	if s := screen(m); !strings.Contains(s, "[Pasted text #1 · 5000 lines]") {
		t.Fatalf("large paste not folded:\n%s", s)
	}
	update(m, tea.PasteMsg{Content: "small"})
	press(m, "enter")
	if p := a.prompts(); len(p) != 1 || p[0] != "look: "+big+"small" {
		t.Fatalf("sent %d bytes, want the paste expanded", len(p[0]))
	}
}

func TestSlashCommands(t *testing.T) {
	ran := 0
	a := &scriptAgent{}
	mv := New(Config{Agent: a, Commands: map[string]func() tea.Cmd{
		"/new": func() tea.Cmd {
			ran++
			return func() tea.Msg { return ResetMsg{Notice: "new session"} }
		},
	}})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})

	submit(m, "/help")
	s := screen(m)
	for range 4 { // every command is described: the list scrolls
		press(m, "pgdown")
		s += screen(m)
	}
	if !strings.Contains(s, "Keys") || !strings.Contains(s, "/new") || !strings.Contains(s, "/quit") {
		t.Fatalf("/help:\n%s", s)
	}
	press(m, "x") // any key closes it
	if strings.Contains(screen(m), "any key closes") {
		t.Fatal("help still open")
	}
	submit(m, "hello")
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	cmd := submit(m, "/new")
	if ran != 1 || cmd == nil {
		t.Fatal("/new did not run")
	}
	update(m, cmd())
	if s := screen(m); strings.Contains(s, "› hello") || !strings.Contains(s, "new session") {
		t.Fatalf("reset did not clear the chat:\n%s", s)
	}
	submit(m, "/nope")
	if !strings.Contains(screen(m), "unknown command /nope") {
		t.Fatal("unknown command not reported")
	}
	m.input.Reset() // it stays in the input, for enter to send it after all
	submit(m, "/usr/bin is missing")
	if p := a.prompts(); p[len(p)-1] != "/usr/bin is missing" {
		t.Fatalf("a path was taken for a command: %q", p)
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if !isQuit(submit(m, "/quit")) {
		t.Fatal("/quit did not quit")
	}
}

func TestHelpOverlayKeys(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	press(m, "?")
	s := screen(m)
	for _, want := range []string{"esc", "interrupt", "tab", "ctrl+t", "ctrl+o", "pgup"} {
		if !strings.Contains(s, want) {
			t.Fatalf("help lacks %q:\n%s", want, s)
		}
	}
	press(m, "esc")
	typeText(m, "what?")
	if overlayOf[*dialog.Help](m) != nil || m.input.Value() != "what?" {
		t.Fatalf("? on a non-empty input opened the help (input %q)", m.input.Value())
	}
	press(m, "ctrl+g")
	if overlayOf[*dialog.Help](m) == nil {
		t.Fatal("ctrl+g did not open the help")
	}
}

func TestRestoredSession(t *testing.T) {
	hist := []provider.Message{
		{Role: provider.RoleUser, Content: "fix the bug"},
		{Role: provider.RoleAssistant, Content: "Looking.", ToolCalls: []provider.ToolCall{
			{ID: "a", Name: "bash", Arguments: `{"command":"go test ./..."}`},
			{ID: "b", Name: "todo", Arguments: `{"items":[{"id":"1","text":"Fix","status":"completed"},{"id":"2","text":"Test","status":"pending"}]}`},
		}},
		{Role: provider.RoleTool, ToolCallID: "a", Content: "FAIL x"},
		{Role: provider.RoleTool, ToolCallID: "b", Content: "ok"},
		{Role: provider.RoleUser, Content: "<reminder>Update your todos.</reminder>"},
		{Role: provider.RoleAssistant, Content: "Fixed **it**."},
	}
	list := todo.List{Items: []todo.Item{{ID: "1", Text: "Fix", Status: todo.Completed}, {ID: "2", Text: "Test", Status: todo.Pending}}}
	mv := New(Config{Agent: &scriptAgent{}, History: agent.Replay(hist), Todos: list})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	s := screen(m)
	for _, want := range []string{"› fix the bug", "Looking.", "● bash  go test ./...", "FAIL x", "Plan · 1/2 done", "Fixed it.", "Plan 1/2 · next: Test", "resumed session"} {
		if !strings.Contains(s, want) {
			t.Errorf("restored screen lacks %q", want)
		}
	}
	if strings.Contains(s, "reminder") {
		t.Error("the loop's reminder is shown as a user message")
	}
	if t.Failed() {
		t.Log("\n" + s)
	}
}
