package ui

import "github.com/tick-agent/tick/agent"

// modeAgent is an Agent whose mode the user switches with shift+tab (the
// agent owns the mode; the TUI only asks for the next one and shows it).
type modeAgent interface {
	Mode() agent.Mode
	SetMode(agent.Mode)
}

// nextMode is the mode shift+tab switches to from m: auto and ask take
// turns.
func nextMode(m agent.Mode) agent.Mode {
	if m == agent.ModeAuto {
		return agent.ModeAsk
	}
	return agent.ModeAuto
}

// cycleMode switches the agent to the next mode; it applies from the next
// tool call.
func (m *Model) cycleMode() {
	if a, ok := m.cfg.Agent.(modeAgent); ok {
		a.SetMode(nextMode(a.Mode()))
	}
}

// modeText is the status bar's mode field: the agent's mode and the
// sandbox's status, e.g. "auto · sandbox: workspace-write".
func (m *Model) modeText() string {
	a, ok := m.cfg.Agent.(modeAgent)
	if !ok {
		return m.cfg.Sandbox
	}
	if m.cfg.Sandbox == "" {
		return a.Mode().String()
	}
	return a.Mode().String() + " · " + m.cfg.Sandbox
}
