package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/ui/prompthist"
)

// historyMsg carries the prompt history loaded from Config.HistoryFile.
type historyMsg struct {
	prompts []string
	err     error
}

// historySavedMsg reports a failed save of the prompt history.
type historySavedMsg struct{ err error }

// promptMsg sends Config.Prompt once the app is up.
type promptMsg struct{ text string }

// startCmds are the commands Init runs: loading the prompt history and
// sending the prompt given on the command line.
func (m *Model) startCmds() tea.Cmd {
	var cmds []tea.Cmd
	if path := m.cfg.HistoryFile; path != "" && !m.histLoaded {
		cmds = append(cmds, func() tea.Msg {
			p, err := prompthist.Load(path)
			return historyMsg{p, err}
		})
	}
	if text := m.cfg.Prompt; text != "" {
		cmds = append(cmds, func() tea.Msg { return promptMsg{text} })
	}
	return tea.Batch(cmds...)
}

// handleInputMsg applies the messages of this file; ok is false for any
// other message.
func (m *Model) handleInputMsg(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case historyMsg:
		if msg.err != nil {
			m.chat.AddNotice("could not load the prompt history: " + msg.err.Error())
		}
		m.input.Load(msg.prompts)
	case historySavedMsg:
		if !m.histWarned {
			m.histWarned = true
			m.chat.AddNotice("could not save the prompt history: " + msg.err.Error())
		}
	case promptMsg:
		if m.turn != nil {
			m.handed.later(msg.text)
			return nil, true
		}
		m.input.Remember(msg.text)
		return m.startTurn(msg.text), true
	default:
		return nil, false
	}
	return nil, true
}

// saveHistory returns the command that appends the prompts sent since the
// last call to Config.HistoryFile, or nil.
func (m *Model) saveHistory() tea.Cmd {
	todo := m.input.TakeUnsaved()
	path := m.cfg.HistoryFile
	if path == "" || len(todo) == 0 {
		return nil
	}
	return func() tea.Msg {
		for _, p := range todo {
			if err := prompthist.Append(path, p); err != nil {
				return historySavedMsg{err}
			}
		}
		return nil
	}
}
