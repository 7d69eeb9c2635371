package ui

import (
	tea "charm.land/bubbletea/v2"
)

// lateNoticesMsg carries the notices of Config.LateNotices.
type lateNoticesMsg []string

// lateNotices returns the command that waits for Config.LateNotices off
// the update loop, or nil without it.
func (m *Model) lateNotices() tea.Cmd {
	f := m.cfg.LateNotices
	if f == nil {
		return nil
	}
	return func() tea.Msg { return lateNoticesMsg(f()) }
}

// addLateNotices adds the late notices to the chat.
func (m *Model) addLateNotices(msg lateNoticesMsg) {
	for _, n := range msg {
		if n != "" {
			m.chat.addNotice(n)
		}
	}
}
