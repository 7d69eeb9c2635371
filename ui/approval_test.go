package ui

import (
	"strconv"

	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// openApproval starts a turn on a w×h model with a hand-moved clock and
// shows an approval request for req.
func openApproval(t *testing.T, w, h int, req agent.ApprovalRequest) (*Model, *fakeClock, chan agent.Approval) {
	t.Helper()
	m, _ := newTestModel(t, w, h)
	c := &fakeClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	m.clock = c.now
	submit(m, "edit")
	reply := make(chan agent.Approval, 1)
	req.Reply = reply
	events(t, m, agent.ToolStart{ID: req.ID, Name: req.Tool, Summary: req.Summary}, req)
	return m, c, reply
}

// TestApprovalIgnoresTyping: keys typed without a pause (after the dialog
// appeared, or after the previous key) go to the input and answer
// nothing; the same keys after a pause answer.
func TestApprovalIgnoresTyping(t *testing.T) {
	const gap = 80 * time.Millisecond // a typist's pace
	tests := []struct {
		name      string
		before    time.Duration // from the dialog to the first key
		typed     string        // typed at gap intervals
		thenPause time.Duration // before the answer key
		answer    string
		want      *agent.Approval // nil: no answer yet
		input     string
	}{
		{"typing on answers nothing", 100 * time.Millisecond, "also check yarn", 0, "", nil, "also check yarn"},
		{"a just after the dialog appeared", 10 * time.Millisecond, "", 0, "a", nil, "a"},
		{"a right after typing", time.Second, "hello ", 100 * time.Millisecond, "a", nil, "hello a"},
		{"y after a pause allows once", time.Second, "", 0, "y", &agent.Approval{Allow: true}, ""},
		{"a after typing and a pause", 100 * time.Millisecond, "hello", 700 * time.Millisecond, "a", &agent.Approval{Allow: true, Always: true}, "hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, c, reply := openApproval(t, 100, 30, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "rm -rf build", Detail: "rm -rf build"})
			c.advance(tt.before)
			for i, r := range tt.typed {
				if i > 0 {
					c.advance(gap)
				}
				typeText(m, string(r))
			}
			c.advance(tt.thenPause)
			if tt.answer != "" {
				press(m, tt.answer)
			}
			var got *agent.Approval
			select {
			case ans := <-reply:
				got = &ans
			default:
			}
			switch {
			case tt.want == nil && got != nil:
				t.Fatalf("answered %+v by typing", *got)
			case tt.want != nil && got == nil:
				t.Fatal("a deliberate key did not answer")
			case tt.want != nil && *got != *tt.want:
				t.Fatalf("answer %+v, want %+v", *got, *tt.want)
			}
			if v := m.input.Value(); v != tt.input {
				t.Fatalf("input %q, want %q", v, tt.input)
			}
			s := screen(m)
			if tt.want == nil && !strings.Contains(s, "your typing went to the input") {
				t.Fatalf("the dialog does not say where the typing went:\n%s", s)
			}
		})
	}
}

// TestApprovalWaitsForDeliberateAnswer: the dialog says so before any key.
func TestApprovalWaitsForDeliberateAnswer(t *testing.T) {
	m, _, _ := openApproval(t, 100, 30, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "ls", Detail: "ls"})
	if s := screen(m); !strings.Contains(s, "waiting for a deliberate answer") {
		t.Fatalf("the dialog does not say it waits for a deliberate answer:\n%s", s)
	}
}

// TestApprovalEnterWhileTypingSteers: enter typed on the heels of text
// sends the input (a steer), it does not deny the call.
func TestApprovalEnterWhileTypingSteers(t *testing.T) {
	m, c, reply := openApproval(t, 100, 30, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "ls", Detail: "ls"})
	a := m.cfg.Agent.(*scriptAgent)
	a.mu.Lock()
	a.running = true
	a.mu.Unlock()
	c.advance(50 * time.Millisecond)
	typeText(m, "go")
	press(m, "enter")
	select {
	case ans := <-reply:
		t.Fatalf("enter while typing answered %+v", ans)
	default:
	}
	if len(a.steers) != 1 || a.steers[0] != "go" {
		t.Fatalf("steers %q, want [go]", a.steers)
	}
}

// TestApprovalScope: the dialog says what allowing for the session covers.
func TestApprovalScope(t *testing.T) {
	tests := []struct {
		scope, want string
	}{
		{"go test …", "a allow `go test …` for this session"},
		{"", "a allow every bash call for this session"},
	}
	for _, tt := range tests {
		m, _, _ := openApproval(t, 120, 40, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "go test ./...", Detail: "go test ./...", Scope: tt.scope})
		if s := screen(m); !strings.Contains(s, tt.want) {
			t.Fatalf("scope %q: dialog lacks %q:\n%s", tt.scope, tt.want, s)
		}
	}
}

// TestApprovalLongCommand: a 500-character command is shown whole,
// wrapped, and scrolls to its dangerous tail; the dialog says it scrolls,
// and the answer keys stay visible at small sizes.
func TestApprovalLongCommand(t *testing.T) {
	cmd := "echo start && " + strings.Repeat("true && ", 60) + "rm -rf ~/DANGER-TAIL"
	for _, size := range [][2]int{{80, 24}, {60, 20}, {120, 40}} {
		t.Run(strconv.Itoa(size[0])+"x"+strconv.Itoa(size[1]), func(t *testing.T) {
			m, c, reply := openApproval(t, size[0], size[1], agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: cmd[:200] + " …", Detail: cmd})
			s := screen(m)
			for _, want := range []string{"y allow once", "a allow every bash call", "n deny", "esc deny", "echo start"} {
				if !strings.Contains(s, want) {
					t.Fatalf("dialog lacks %q:\n%s", want, s)
				}
			}
			if !strings.Contains(s, "DANGER-TAIL") && !strings.Contains(s, "scrolls") {
				t.Fatalf("part of the command is hidden and the dialog does not say it scrolls:\n%s", s)
			}
			checkFits(t, m, size[0], size[1])
			c.advance(time.Second)
			seen := false
			for range 40 {
				press(m, "pgdown")
				if strings.Contains(screen(m), "DANGER-TAIL") {
					seen = true
					break
				}
			}
			if !seen {
				t.Fatalf("the tail of the command is never shown:\n%s", screen(m))
			}
			if s := screen(m); !strings.Contains(s, "y allow once") || !strings.Contains(s, "esc deny") {
				t.Fatalf("keys gone after scrolling:\n%s", s)
			}
			select {
			case ans := <-reply:
				t.Fatalf("scrolling answered %+v", ans)
			default:
			}
		})
	}
}
