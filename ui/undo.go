package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"github.com/tick-agent/tick/ui/style"

	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

// undoPreviewMsg carries the preview of an /undo, made off the update loop.
type undoPreviewMsg struct {
	arg string
	pre agent.UndoPreview
	err error
}

// undoneMsg carries the result of a confirmed undo.
type undoneMsg struct {
	pre agent.UndoPreview
	evs []agent.Event // what the undo caused: the new list
	err error
}

// undoCommand runs /undo [N]: during a turn it interrupts the turn first
// and opens the confirmation once it has ended.
func (m *Model) undoCommand(args string) tea.Cmd {
	arg := strings.TrimPrefix(strings.TrimSpace(args), "#")
	if m.turn != nil {
		m.plan.undoAfter = &arg
		m.interrupt()
		m.chat.AddNotice("/undo: interrupting the turn first")
		return nil
	}
	return m.previewUndo(arg)
}

// previewUndo asks the agent what undoing would change.
func (m *Model) previewUndo(arg string) tea.Cmd {
	ua, ctx := m.cfg.Agent, m.ctx
	return func() tea.Msg {
		pre, err := ua.PreviewUndo(ctx, arg)
		return undoPreviewMsg{arg: arg, pre: pre, err: err}
	}
}

// undoAfterTurn opens a confirmation asked for during the turn that just
// ended.
func (m *Model) undoAfterTurn() tea.Cmd {
	arg := m.plan.undoAfter
	if arg == nil {
		return nil
	}
	m.plan.undoAfter = nil
	return m.previewUndo(*arg)
}

// handleUndoMsg applies a preview (opening the confirmation) or the result
// of an undo.
func (m *Model) handleUndoMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case undoPreviewMsg:
		if msg.err != nil {
			m.chat.AddNotice("/undo: " + msg.err.Error())
			return nil
		}
		ua, ctx, item := m.cfg.Agent, m.ctx, msg.pre.Item
		m.over.push(dialog.NewUndo(m.keys.Undo, msg.pre, m.now, func() tea.Msg {
			pre, evs, err := ua.Undo(ctx, item)
			return undoneMsg{pre: pre, evs: evs, err: err}
		}))
		m.input.Blur()
	case undoneMsg:
		if msg.err != nil {
			m.chat.AddNotice("/undo: " + msg.err.Error())
			return nil
		}
		m.applyEvents(msg.evs)
		what := "#" + msg.pre.Item
		if msg.pre.Item == "" { // the user's apply of a kept task
			what = style.OneLine(msg.pre.Text)
		}
		m.chat.AddNotice(fmt.Sprintf("undid %s: %s restored; the model is told with your next message", what, style.Plural(len(msg.pre.Changes), "file")))
	}
	return nil
}
