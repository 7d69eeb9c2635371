package ui

import (
	"github.com/tick-agent/tick/ui/style"

	"github.com/tick-agent/tick/ui/status"

	tea "charm.land/bubbletea/v2"
)

// The terminal's background colour decides between the dark and the light
// styles. Asking the terminal costs a round trip (15 ms inside tmux, an
// RTT over ssh), so the app does not wait for the answer before its first
// frame: it draws with Config.Dark (a guess: COLORFGBG, else dark) and,
// with Config.AskBackground, asks through Bubble Tea once it runs. Bubble
// Tea reads the answer with the keys, so nothing typed meanwhile is lost;
// when it differs from the guess, restyle switches every style in place
// and the next frame shows them. A terminal that never answers keeps the
// guess.

// askBackground returns the query for the terminal's background colour,
// or nil when cfg does not ask.
func (m *Model) askBackground() tea.Cmd {
	if !m.cfg.AskBackground {
		return nil
	}
	return tea.RequestBackgroundColor
}

// setBackground applies the terminal's answer: the styles for its
// background, when they are not those in use.
func (m *Model) setBackground(msg tea.BackgroundColorMsg) {
	if msg.Color == nil || msg.IsDark() == m.st.Dark {
		return
	}
	m.restyle(msg.IsDark())
}

// restyle replaces the styles by DefaultStyles(dark) in every part that
// copied them: the status bar, the chat (its answers are rendered again),
// the input, the help and the spinner. Dialogs and pickers read the
// shared Styles when they open.
func (m *Model) restyle(dark bool) {
	*m.st = DefaultStyles(dark)
	m.bar = status.NewBar(m.st)
	m.chat.Restyle()
	m.input.Restyle(m.st)
	m.help.Styles = style.HelpModel(m.st).Styles
	m.spin.Style = m.st.Spinner
}
