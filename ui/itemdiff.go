package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
)

// The item diff itself is dialog.ItemDiff; this file asks the agent for
// an item's changes and opens it.

// itemDiffMsg carries what an item changed, asked off the update loop
// when enter is pressed on it in the plan editor.
type itemDiffMsg struct {
	item string
	ch   agent.ItemChanges
	err  error
}

// openItemDiff asks the agent what item changed.
func (m *Model) openItemDiff(item string) tea.Cmd {
	ia, ctx := m.cfg.Agent, m.ctx
	return func() tea.Msg {
		ch, err := ia.ItemDiff(ctx, item)
		return itemDiffMsg{item: item, ch: ch, err: err}
	}
}

// handleItemDiff opens the view, or says in the editor (or the chat, once
// it is closed) why it cannot.
func (m *Model) handleItemDiff(msg itemDiffMsg) {
	ed := overlayOf[*dialog.PlanEditor](m)
	if msg.err != nil {
		text := "#" + msg.item + ": " + msg.err.Error()
		if ed != nil {
			ed.Refused(text)
		} else {
			m.chat.AddNotice(text)
		}
		return
	}
	if ed == nil {
		return // the editor closed meanwhile
	}
	m.over.push(dialog.NewItemDiff(m.st, msg.ch))
}
