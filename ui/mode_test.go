package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

// modalAgent is a scriptAgent that owns a mode, like agent.Agent.
type modalAgent struct {
	*scriptAgent
	mode agent.Mode
}

func (a *modalAgent) Mode() agent.Mode     { return a.mode }
func (a *modalAgent) SetMode(m agent.Mode) { a.mode = m }

// TestCycleMode: shift+tab switches the agent from auto to plan to ask and
// back to auto, and the status bar shows the mode with the sandbox's
// status.
func TestCycleMode(t *testing.T) {
	a := &modalAgent{scriptAgent: &scriptAgent{}}
	m := New(Config{Agent: a, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test", Services: fakeServices{sandbox: func() string { return "sandbox: workspace-write" }}})
	mp := &m
	mp.Update(tea.WindowSizeMsg{Width: 140, Height: 30})
	if s := screen(mp); !strings.Contains(s, "auto · sandbox: workspace-write") {
		t.Fatalf("the status bar lacks the mode and sandbox:\n%s", s)
	}
	press(mp, "shift+tab")
	if a.mode != agent.ModePlan || !strings.Contains(screen(mp), "plan · sandbox: read-only") {
		t.Fatalf("after shift+tab: mode %v, screen:\n%s", a.mode, screen(mp))
	}
	press(mp, "shift+tab")
	if a.mode != agent.ModeAsk || !strings.Contains(screen(mp), "ask · sandbox: workspace-write") {
		t.Fatalf("after shift+tab twice: mode %v, screen:\n%s", a.mode, screen(mp))
	}
	press(mp, "shift+tab")
	if a.mode != agent.ModeAuto {
		t.Fatalf("after a second shift+tab: mode %v, want auto", a.mode)
	}
	mp.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	if s := screen(mp); !strings.Contains(s, "auto") {
		t.Fatalf("at 60 columns the mode is gone:\n%s", s)
	}
}
