package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestNoAgentCommands: without a model (Config.Agent nil) every command
// that needs the agent answers "no model is configured" in the chat, and
// none of them reaches a nil agent (/rewind and the plan editor's item
// diff called it off the update loop and panicked).
func TestNoAgentCommands(t *testing.T) {
	for _, cmd := range []string{"/rewind", "/undo", "/plan clear", "/think high", "/verify go test ./...", "hello", "/compact"} {
		t.Run(cmd, func(t *testing.T) {
			m := New(Config{Model: "none", Workspace: "/tmp/ws", Dark: true})
			mp := &m
			mp.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			runCmd(mp, submit(mp, cmd))
			if s := screen(mp); !strings.Contains(s, "no model is configured") {
				t.Errorf("%s without a model:\n%s", cmd, s)
			}
			press(mp, "ctrl+r")
			press(mp, "shift+tab")
			if s := statusLine(mp); strings.Contains(s, "plan") || strings.Contains(s, "auto") {
				t.Errorf("the status bar shows a mode without a model: %q", s)
			}
		})
	}
}
