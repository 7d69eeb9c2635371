package ui

import tea "charm.land/bubbletea/v2"

// SendMsg sends Text as a prompt, as if the user had typed and sent it:
// at once when no turn runs, as the next turn otherwise. Slash commands
// from Config.Commands may return it (/init does).
type SendMsg struct{ Text string }

// handleConfigMsg applies the messages of the configuration features
// (SendMsg, the /model picker); ok is false for any other message.
func (m *Model) handleConfigMsg(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case SendMsg:
		if msg.Text == "" {
			return nil, true
		}
		if m.turn != nil {
			m.handed.later(msg.Text)
			return nil, true
		}
		return m.startTurn(msg.Text), true
	}
	if cmd, ok := m.handleModelMsg(msg); ok {
		return cmd, true
	}
	return m.input.HandleMentionMsg(msg, m.fileIndex())
}

// addConfigCommands adds /model when Services offers Models.
func (m *Model) addConfigCommands() {
	if m.cfg.Services.Offers().Models {
		m.commands["model"] = command{builtin: true, desc: "switch the model", run: (*Model).openModels}
	}
}
