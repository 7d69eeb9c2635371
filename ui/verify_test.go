package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/status"
)

// TestVerifyCommandAndState: /verify CMD sets the agent's check; the
// status bar and the panel's last line show it, then what its runs came
// to; /verify off turns it off.
func TestVerifyCommandAndState(t *testing.T) {
	ag := &scriptAgent{}
	m := New(Config{Agent: ag, Model: "m"})
	m.verifyCommand("go test ./...")
	if ag.verify != "go test ./..." {
		t.Fatalf("the agent's check is %q", ag.verify)
	}
	bar := func() string { return ansi.Strip(status.View(m.bar, m.statusInfo(), 160)) }
	if !strings.Contains(bar(), "verify: go test ./...") {
		t.Errorf("the status bar does not name the check: %q", bar())
	}
	m.panel.SetList(todo.List{Items: []todo.Item{{ID: "1", Text: "Fix", Status: todo.Completed}}}, m.now)
	code := 1
	for _, ev := range []agent.Event{
		agent.VerifyStarted{Command: "go test ./...", Attempt: 1, Max: 3},
		agent.Verified{Command: "go test ./...", Attempt: 1, Max: 3, ExitCode: &code},
	} {
		m.verifyEvent(ev)
	}
	if !strings.Contains(bar(), "verify ✗ exit 1 · 1/3") {
		t.Errorf("the status bar does not show the failure: %q", bar())
	}
	lines := m.panel.View(60, 10, "")
	if last := ansi.Strip(lines[len(lines)-1]); !strings.Contains(last, "verify ✗ exit 1 · 1/3") {
		t.Errorf("the panel's last line is %q, want the check's failure", last)
	}
	m.verifyCommand("off")
	if ag.verify != "" || strings.Contains(bar(), "verify") {
		t.Errorf("after /verify off: agent %q, status bar %q", ag.verify, bar())
	}
}
