package ui

import (
	"github.com/tick-agent/tick/ui/style"

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

// modelCheckMsg carries Config.ModelCheck's warning about model.
type modelCheckMsg struct{ model, warning string }

// checkModel returns the command that asks Config.ModelCheck about the
// model the app starts with, or nil without one.
func (m *Model) checkModel() tea.Cmd {
	f, model := m.cfg.ModelCheck, m.cfg.Model
	if f == nil || model == "" {
		return nil
	}
	return func() tea.Msg { return modelCheckMsg{model: model, warning: f(model)} }
}

// modelChecked keeps the warning for the status bar (see status.Info),
// unless the model changed since it was asked about; it shows while the
// app is idle with that model.
func (m *Model) modelChecked(msg modelCheckMsg) {
	if msg.warning != "" && msg.model == m.cfg.Model {
		msg.warning = style.OneLine(msg.warning) // it names the model, which a server may have named
		m.modelWarn = msg
	}
}
