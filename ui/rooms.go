package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/chat"
	"github.com/tick-agent/tick/ui/input"
	"github.com/tick-agent/tick/ui/panel"
)

// The parts in sub-packages as the root holds them. The approval dialog
// (approval.go, the last dialog still in the root, issue 29 §1) calls them
// by the root's older lower-case names; these shims go when it moves to
// ui/dialog.

// panelPart is the todo panel (ui/panel).
type panelPart struct{ *panel.Model }

// taskLabel is panel.Model.TaskLabel.
func (p panelPart) taskLabel(id string) string { return p.TaskLabel(id) }

// chatPart is the transcript (ui/chat).
type chatPart struct{ *chat.Model }

// addNotice is chat.Model.AddNotice.
func (c chatPart) addNotice(text string) { c.AddNotice(text) }

// inputPart is the prompt box (ui/input).
type inputPart struct{ *input.Model }

// update is input.Model.Update's command: the root and approval.go pass
// the input a key or a paste through it.
func (p inputPart) update(msg tea.Msg) tea.Cmd {
	_, cmd := p.Update(msg)
	return cmd
}

// focus is input.Model.Focus.
func (p inputPart) focus() { p.Focus() }

// blur is input.Model.Blur.
func (p inputPart) blur() { p.Blur() }

// value is input.Model.Value.
func (p inputPart) value() string { return p.Value() }
