package ui

import (
	tea "charm.land/bubbletea/v2"
)

// lateNotice returns the command that waits for Config.LateNotice off the
// update loop and shows its notice (as a NoticeMsg), or nil without it.
func (m *Model) lateNotice() tea.Cmd {
	f := m.cfg.LateNotice
	if f == nil {
		return nil
	}
	return func() tea.Msg {
		if text := f(); text != "" {
			return NoticeMsg{Text: text}
		}
		return nil
	}
}
