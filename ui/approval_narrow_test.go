package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/tick-agent/tick/agent"
)

// TestApprovalGuardWhole60x20: on a 60×20 screen the dialog's guard line
// is shown whole, a clause a line, and the answer keys stay visible.
func TestApprovalGuardWhole60x20(t *testing.T) {
	m, _, _ := openApproval(t, 60, 20, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "sleep 30", Detail: "sleep 30", Scope: "sleep …"})
	s := screen(m)
	for _, want := range []string{
		"│ waiting for a deliberate answer ",
		"│ keys typed without a pause go to the input ",
		"y allow once", "a allow `sleep …` for this session", "n deny, with a reason", "esc deny",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the dialog at 60×20 lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log("\n" + s)
	}
	golden.RequireEqual(t, s)
}

// TestApprovalGuardKeepsKeysOnSmallest: on the smallest screen (60×15),
// with a long command, the guard and every answer key are on screen.
func TestApprovalGuardKeepsKeysOnSmallest(t *testing.T) {
	long := strings.Repeat("echo a long command that wraps; ", 12)
	m, _, _ := openApproval(t, 60, 15, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: long, Detail: long, Scope: "echo …"})
	s := screen(m)
	for _, want := range []string{"waiting for a deliberate answer", "keys typed without a pause go to the input", "y allow once", "esc deny"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the dialog at 60×15 lacks %q:\n%s", want, s)
		}
	}
}
