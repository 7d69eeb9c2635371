package ui

import tea "charm.land/bubbletea/v2"

// toInput passes the input (ui/input) a key, a paste or the textarea's own
// messages and returns its command.
func (m *Model) toInput(msg tea.Msg) tea.Cmd {
	_, cmd := m.input.Update(msg)
	return cmd
}
