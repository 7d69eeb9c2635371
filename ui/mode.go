package ui

import (
	"github.com/tick-agent/tick/ui/style"

	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

// nextMode is the mode shift+tab switches to from m: auto, plan, ask and
// auto again.
func nextMode(m agent.Mode) agent.Mode {
	switch m {
	case agent.ModeAuto:
		return agent.ModePlan
	case agent.ModePlan:
		return agent.ModeAsk
	}
	return agent.ModeAuto
}

// cycleMode switches the agent to the next mode; it applies from the next
// tool call.
func (m *Model) cycleMode() {
	a := m.cfg.Agent
	if m.agentless() {
		return
	}
	next := nextMode(a.Mode())
	a.SetMode(next)
	if next == agent.ModePlan {
		m.note = "plan mode: nothing changes until you approve a plan"
	}
}

// modeText is the status bar's mode field: the agent's mode and the
// sandbox's status, e.g. "auto · sandbox: workspace-write".
func (m *Model) modeText() string {
	sb := style.OneLine(m.cfg.Services.SandboxStatus())
	a := m.cfg.Agent
	if m.agentless() {
		return sb
	}
	if sb == "" {
		return a.Mode().String()
	}
	if a.Mode() == agent.ModePlan && strings.HasPrefix(sb, "sandbox: ") {
		sb = "sandbox: read-only" // plan mode's commands
	}
	return a.Mode().String() + " · " + sb
}

// sandboxReadyMsg says the sandbox's status is known; the frame it causes
// shows it.
type sandboxReadyMsg struct{}

// waitSandbox waits for ready to close; nil waits for nothing.
func waitSandbox(ready <-chan struct{}) tea.Cmd {
	if ready == nil {
		return nil
	}
	return func() tea.Msg {
		<-ready
		return sandboxReadyMsg{}
	}
}
