package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/chat"
	"github.com/tick-agent/tick/ui/input"
	"github.com/tick-agent/tick/ui/panel"
)

// The parts in sub-packages as the root holds them.

// panelPart is the todo panel (ui/panel).
type panelPart struct{ *panel.Model }

// chatPart is the transcript (ui/chat).
type chatPart struct{ *chat.Model }

// inputPart is the prompt box (ui/input).
type inputPart struct{ *input.Model }

// update is input.Model.Update's command: the root passes the input a key,
// a paste or the textarea's own messages through it.
func (p inputPart) update(msg tea.Msg) tea.Cmd {
	_, cmd := p.Update(msg)
	return cmd
}
