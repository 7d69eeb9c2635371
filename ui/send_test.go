package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"github.com/tick-agent/tick/ui/style"

	"github.com/charmbracelet/x/ansi"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

func TestSendMsg(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	update(m, SendMsg{Text: "write AGENTS.md"})
	if got := a.prompts(); len(got) != 1 || got[0] != "write AGENTS.md" {
		t.Fatalf("prompts %q, want the sent text as a turn", got)
	}
	if !strings.Contains(screen(m), "write AGENTS.md") {
		t.Errorf("the sent prompt is not in the chat:\n%s", screen(m))
	}
	// While a turn runs it waits for the turn's end.
	update(m, SendMsg{Text: "second"})
	if got := a.prompts(); len(got) != 1 {
		t.Fatalf("sent during a turn: %q", got)
	}
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	if got := a.prompts(); len(got) != 2 || got[1] != "second" {
		t.Errorf("prompts %q, want the waiting one sent after the turn", got)
	}
}

func TestHelpNamesConfigFile(t *testing.T) {
	st := DefaultStyles(true)
	out := ansi.Strip(dialog.NewHelp(style.DefaultHelpKeyMap()).Box(&st, DefaultKeyMap(), nil, "/home/me/.config/tick/config.toml", 120, 80))
	if !strings.Contains(out, "settings: /home/me/.config/tick/config.toml") {
		t.Errorf("the help does not name the config file:\n%s", out)
	}
}
