package ui

import (
	"github.com/tick-agent/tick/ui/status"

	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

func TestEscInterruptsAndGivesTextBack(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "long job")
	run := a.last()
	events(t, m, agent.TodoUpdate{List: plan("Job", "> Step one", "p Step two")}, agent.TextDelta{Text: "working"})
	submit(m, "steer me") // delivered? no: comes back
	typeText(m, "queue me")
	press(m, "tab")
	typeText(m, "half typed")

	press(m, "esc")
	if run.ctx.Err() == nil {
		t.Fatal("esc did not cancel the turn's context at once")
	}
	if !strings.Contains(screen(m), "interrupting") {
		t.Errorf("status does not say interrupting:\n%s", screen(m))
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonInterrupted, Undelivered: []string{"steer me"}})

	s := screen(m)
	if !strings.Contains(s, "Interrupted") {
		t.Errorf("no interrupted notice:\n%s", s)
	}
	if strings.Contains(s, "Step two") || !strings.Contains(s, "Plan 0/2 · next: Step one") {
		t.Errorf("panel did not collapse:\n%s", s)
	}
	if got, want := m.input.Value(), "steer me\nqueue me\nhalf typed"; got != want {
		t.Errorf("input after interrupt = %q, want %q", got, want)
	}
	if n := len(a.prompts()); n != 1 {
		t.Errorf("queued text was sent after an interrupt: %d runs", n)
	}
	if m.running() || m.turn != nil {
		t.Error("still running after the turn closed")
	}
}

func TestCtrlC(t *testing.T) {
	tests := []struct {
		name      string
		running   bool
		input     string
		wantQuit  bool
		wantInput string
		cancelled bool
	}{
		{name: "running: interrupts", running: true, input: "draft", wantInput: "draft", cancelled: true},
		{name: "idle with text: clears", input: "draft", wantInput: ""},
		{name: "idle and empty: asks for a second press", wantInput: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, a := newTestModel(t, 80, 24)
			if tt.running {
				submit(m, "work")
			}
			typeText(m, tt.input)
			cmd := press(m, "ctrl+c")
			if got := isQuit(cmd); got != tt.wantQuit {
				t.Fatalf("quit = %v, want %v", got, tt.wantQuit)
			}
			if got := m.input.Value(); got != tt.wantInput {
				t.Errorf("input = %q, want %q", got, tt.wantInput)
			}
			if tt.cancelled && a.last().ctx.Err() == nil {
				t.Error("turn not cancelled")
			}
			if !tt.wantQuit && !tt.running {
				if !isQuit(press(m, "ctrl+c")) {
					t.Error("second ctrl+c did not quit")
				}
			}
		})
	}
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestSteering(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "start")
	submit(m, "also do X")
	if len(a.steers) != 1 || a.steers[0] != "also do X" {
		t.Fatalf("Steer calls = %q", a.steers)
	}
	if s := screen(m); !strings.Contains(s, "steering: also do X") || !strings.Contains(s, "1 steering") {
		t.Fatalf("steer message not shown as steering:\n%s", s)
	}
	events(t, m, agent.SteerDelivered{ID: 1, Text: "also do X"})
	s := screen(m)
	if strings.Contains(s, "steering:") {
		t.Fatalf("still marked steering after delivery:\n%s", s)
	}
	if !strings.Contains(s, "› also do X") {
		t.Fatalf("delivered steer message not in the chat:\n%s", s)
	}
	if len(a.prompts()) != 1 {
		t.Fatal("a steer message started a turn")
	}
}

// TestSteerDeliveredById delivers the later of two messages with the same
// text: the one Steer gave that id leaves the strip, the other waits.
func TestSteerDeliveredById(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "start")
	submit(m, "again")
	submit(m, "other")
	submit(m, "again")
	if len(a.steers) != 3 {
		t.Fatalf("Steer calls = %q", a.steers)
	}
	events(t, m, agent.SteerDelivered{ID: 3, Text: "again"})
	var ids []int
	for _, s := range m.handed.steering {
		ids = append(ids, s.id)
	}
	if len(ids) != 2 || ids[0] != 1 || ids[1] != 2 {
		t.Fatalf("waiting steer ids = %v, want [1 2]", ids)
	}
	if s := screen(m); !strings.Contains(s, "2 steering") || strings.Count(s, "steering: again") != 1 {
		t.Fatalf("the strip does not show the two waiting messages:\n%s", s)
	}
}

func TestSteerRefusedBecomesNextTurn(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "start")
	a.refuse = true // the turn is ending
	submit(m, "follow-up")
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if p := a.prompts(); len(p) != 2 || p[1] != "follow-up" {
		t.Fatalf("prompts = %q, want the follow-up sent as a new turn", p)
	}
}

func TestUndeliveredSteerAfterDoneIsSent(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "start")
	submit(m, "late steer")
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone, Undelivered: []string{"late steer"}})
	if p := a.prompts(); len(p) != 2 || p[1] != "late steer" {
		t.Fatalf("prompts = %q", p)
	}
}

func TestQueue(t *testing.T) {
	tests := []struct {
		name      string
		end       agent.TurnEnd
		wantRun   string // the next prompt sent, or ""
		wantInput string
		wantNote  string // what the chat says about the queued text
	}{
		{"done: sent as the next turn", agent.TurnEnd{Reason: agent.ReasonDone}, "first\n\nsecond", "", ""},
		{"error: back in the input, and the chat says so", agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New("400 Bad Request"), Error: "400 Bad Request", Kind: agent.KindUnknown},
			"", "first\nsecond", "the 2 messages you queued were not sent: they are back in the input"},
		{"interrupted: back in the input", agent.TurnEnd{Reason: agent.ReasonInterrupted}, "", "first\nsecond", "what was not sent yet is back in the input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, a := newTestModel(t, 100, 30)
			submit(m, "start")
			typeText(m, "first")
			press(m, "tab")
			typeText(m, "second")
			press(m, "tab")
			if len(a.steers) != 0 {
				t.Fatal("tab steered")
			}
			s := screen(m)
			if !strings.Contains(s, "queued: first") || !strings.Contains(s, "2 queued") {
				t.Fatalf("queue not shown:\n%s", s)
			}
			endTurn(t, m, a, tt.end)
			p := a.prompts()
			if tt.wantRun == "" && len(p) != 1 {
				t.Fatalf("queued text was sent: %q", p)
			}
			if tt.wantRun != "" && (len(p) != 2 || p[1] != tt.wantRun) {
				t.Fatalf("prompts = %q, want next %q", p, tt.wantRun)
			}
			if got := m.input.Value(); got != tt.wantInput {
				t.Errorf("input = %q, want %q", got, tt.wantInput)
			}
			if s := screen(m); tt.wantNote != "" && !strings.Contains(strings.Join(strings.Fields(s), " "), tt.wantNote) {
				t.Errorf("the chat does not say %q:\n%s", tt.wantNote, s)
			}
		})
	}
}

func TestErrorBlock(t *testing.T) {
	// The hint comes from the kind the agent gave, never from the words
	// of the message ("preset" contains "reset").
	tests := []struct {
		err  string
		kind agent.ErrorKind
		hint string
	}{
		{"401 Unauthorized from http://x/v1: Incorrect API key provided", agent.KindAuth, "OPENAI_API_KEY"},
		{"dial tcp 127.0.0.1:1: connect: connection refused", agent.KindNetwork, "network"},
		{"stream cut after 3 chunks: unexpected EOF", agent.KindStreamCut, "stream was cut"},
		{"404 Not Found: model gpt-9 does not exist", agent.KindNotFound, "model name"},
		{"the preset has no 401 in it", agent.KindUnknown, "Send a message to try again"},
		{"prompt is too long", agent.KindContextWindow, "/compact"},
		{"no answer for 5m0s", agent.KindTimeout, "went quiet"},
		{"something odd", "", "try again"},
	}
	for _, tt := range tests {
		t.Run(tt.err, func(t *testing.T) {
			m, a := newTestModel(t, 100, 30)
			submit(m, "hi")
			endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New(tt.err), Error: tt.err, Kind: tt.kind})
			s := screen(m)
			if !strings.Contains(s, "Error") || !strings.Contains(s, firstWords(tt.err)) || !strings.Contains(s, tt.hint) {
				t.Fatalf("error block lacks message or hint %q:\n%s", tt.hint, s)
			}
			// Still usable.
			submit(m, "again")
			if p := a.prompts(); len(p) != 2 {
				t.Fatalf("could not send after an error: %q", p)
			}
		})
	}
}

func firstWords(s string) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(3, len(f))], " ")
}

func TestApprovalDialog(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		want agent.Approval
	}{
		{"y allows once", []string{"y"}, agent.Approval{Allow: true}},
		{"a allows always", []string{"a"}, agent.Approval{Allow: true, Always: true}},
		{"n then enter denies", []string{"n", "enter"}, agent.Approval{}},
		{"n with a reason", []string{"n", "u", "s", "e", " ", "t", "m", "p", "enter"}, agent.Approval{Reason: "use tmp"}},
		{"esc denies", []string{"esc"}, agent.Approval{}},
		{"n then esc denies without reason", []string{"n", "x", "esc"}, agent.Approval{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, a := newTestModel(t, 100, 30)
			submit(m, "edit")
			reply := make(chan agent.Approval, 1)
			events(t, m, agent.ToolStart{ID: "1", Name: "bash", Summary: "rm -rf build"},
				agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "rm -rf build", Detail: "rm -rf build", Reply: reply})
			s := screen(m)
			if !strings.Contains(s, "Allow bash?") || !strings.Contains(s, "rm -rf build") || !strings.Contains(s, "waiting for approval") {
				t.Fatalf("dialog not shown:\n%s", s)
			}
			pause(m)
			for _, k := range tt.keys {
				if k == " " {
					update(m, tea.KeyPressMsg{Code: ' ', Text: " "})
					continue
				}
				press(m, k)
			}
			select {
			case got := <-reply:
				if got != tt.want {
					t.Fatalf("reply = %+v, want %+v", got, tt.want)
				}
			default:
				t.Fatal("no reply sent")
			}
			if strings.Contains(screen(m), "Allow bash?") {
				t.Fatal("dialog still open")
			}
			if a.last().ctx.Err() != nil {
				t.Fatal("answering the dialog interrupted the turn")
			}
		})
	}
}

func TestApprovalDiffAndInterrupt(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	submit(m, "edit")
	reply := make(chan agent.Approval, 1)
	diff := "--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-old line\n+new line\n"
	events(t, m, agent.ApprovalRequest{ID: "1", Tool: "edit_file", Summary: "x.go", Detail: diff, Reply: reply})
	s := screen(m)
	for _, want := range []string{"Allow edit_file?", "x.go", "1 - old line", "1 + new line"} {
		if !strings.Contains(s, want) {
			t.Fatalf("diff dialog lacks %q:\n%s", want, s)
		}
	}
	press(m, "ctrl+c")
	if got := <-reply; got.Allow {
		t.Fatal("ctrl+c in the dialog allowed the call")
	}
	if !m.turn.ended && m.turn.act != status.ActInterrupting {
		t.Fatal("ctrl+c in the dialog did not interrupt")
	}
}
