package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

// TestApprovalBurstAfterRest (issue 30 §7): with "Allow …?" open for a
// second, a burst of typing ("also do it") answers nothing, even its
// first key after the rest: every key goes to the input. A single key
// after a rest, with the keyboard quiet after it, still answers; an
// "allow for the session" is written in the chat.
func TestApprovalBurstAfterRest(t *testing.T) {
	tests := []struct {
		name  string
		typed string
		gap   time.Duration
		want  *agent.Approval
		input string
	}{
		{"a burst starting with a", "also do it", 30 * time.Millisecond, nil, "also do it"},
		{"a burst starting with y", "yes but wait", 60 * time.Millisecond, nil, "yes but wait"},
		{"two keys", "ay", 200 * time.Millisecond, nil, "ay"},
		{"a alone", "a", 0, &agent.Approval{Allow: true, Always: true}, ""},
		{"y alone", "y", 0, &agent.Approval{Allow: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, c, reply := openApproval(t, 100, 30, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "go test ./...", Detail: "go test ./...", Scope: "go test …"})
			c.advance(time.Second)
			for i, r := range tt.typed {
				if i > 0 {
					c.advance(tt.gap)
				}
				typeText(m, string(r))
			}
			settle(m)
			var got *agent.Approval
			select {
			case ans := <-reply:
				got = &ans
			default:
			}
			switch {
			case tt.want == nil && got != nil:
				t.Fatalf("typing %q answered %+v", tt.typed, *got)
			case tt.want != nil && (got == nil || *got != *tt.want):
				t.Fatalf("answer %v, want %+v", got, *tt.want)
			}
			if v := m.input.Value(); v != tt.input {
				t.Errorf("input %q, want %q", v, tt.input)
			}
			allowed := strings.Contains(screen(m), "allowed `go test …` for this session")
			if allowed != (tt.want != nil && tt.want.Always) {
				t.Errorf("the chat records the session approval: %v, want %v\n%s", allowed, !allowed, screen(m))
			}
			if tt.want == nil && !strings.Contains(screen(m), "your typing went to the input") {
				t.Errorf("the dialog does not say where the typing went:\n%s", screen(m))
			}
		})
	}
}

// TestHeldKeyKeepsOrder: a key held back from a question and the paste
// after it reach the input in the order they came.
func TestHeldKeyKeepsOrder(t *testing.T) {
	m, c, reply := openApproval(t, 100, 30, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "ls", Detail: "ls"})
	c.advance(time.Second)
	typeText(m, "a")
	c.advance(50 * time.Millisecond)
	update(m, tea.PasteMsg{Content: "lso"})
	settle(m)
	select {
	case ans := <-reply:
		t.Fatalf("a key and a paste answered %+v", ans)
	default:
	}
	if v := m.input.Value(); v != "also" {
		t.Errorf("input %q, want %q", v, "also")
	}
}
