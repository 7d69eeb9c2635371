package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// ThinkAgent is what an agent implements to take /think: the thinking
// level asked of a reasoning model ("" the server's default, "off", "low",
// "medium", "high"). *agent.Agent implements it.
type ThinkAgent interface {
	Effort() string
	SetEffort(level string) error
}

// thinkCommand is /think [off|low|medium|high|default]: without an
// argument it says the level, else it sets it from the next request on.
// The status bar shows a level that is set.
func (m *Model) thinkCommand(args string) tea.Cmd {
	ta, ok := m.cfg.Agent.(ThinkAgent)
	if !ok {
		m.chat.addNotice("/think is not available with this agent")
		return nil
	}
	level := strings.TrimSpace(args)
	if level == "" {
		m.think = ta.Effort()
		m.chat.addNotice("thinking: " + thinkText(m.think) + " (/think off, low, medium, high or default)")
		return nil
	}
	if err := ta.SetEffort(level); err != nil {
		m.chat.addNotice(err.Error())
		return nil
	}
	m.think = ta.Effort()
	m.chat.addNotice("thinking: " + thinkText(m.think) + ", from the next request on")
	return nil
}

// thinkText names a level for people.
func thinkText(level string) string {
	if level == "" {
		return "the server's default"
	}
	return level
}

// initialThink is the agent's level when the app starts ("" when the
// agent takes no /think).
func initialThink(a Agent) string {
	if ta, ok := a.(ThinkAgent); ok {
		return ta.Effort()
	}
	return ""
}
