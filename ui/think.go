package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// thinkCommand is /think [off|low|medium|high|default]: without an
// argument it says the level, else it sets it from the next request on.
// The status bar shows a level that is set.
func (m *Model) thinkCommand(args string) tea.Cmd {
	ta := m.cfg.Agent
	if m.agentless() {
		m.chat.AddNotice(errNoAgent.Error())
		return nil
	}
	level := strings.TrimSpace(args)
	if level == "" {
		m.think = ta.Effort()
		m.chat.AddNotice("thinking: " + thinkText(m.think) + " (/think off, low, medium, high or default)")
		return nil
	}
	if err := ta.SetEffort(level); err != nil {
		m.chat.AddNotice(err.Error())
		return nil
	}
	m.think = ta.Effort()
	m.chat.AddNotice("thinking: " + thinkText(m.think) + ", from the next request on")
	return nil
}

// thinkText names a level for people.
func thinkText(level string) string {
	if level == "" {
		return "the server's default"
	}
	return level
}
