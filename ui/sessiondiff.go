package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
)

// sessionDiffMsg carries what /diff asked the agent, off the update loop.
type sessionDiffMsg struct {
	ch  agent.ItemChanges
	err error
}

// diffCommand runs /diff [N | #N]: it asks the agent what changed since
// the session's start, message N or item N, and opens the dialog.
func (m *Model) diffCommand(args string) tea.Cmd {
	da, ctx, since := m.cfg.Agent, m.ctx, strings.TrimSpace(args)
	return func() tea.Msg {
		ch, err := da.SessionDiff(ctx, since)
		return sessionDiffMsg{ch: ch, err: err}
	}
}

// handleSessionDiff opens the /diff dialog, or says why it cannot.
func (m *Model) handleSessionDiff(msg sessionDiffMsg) {
	if msg.err != nil {
		m.chat.AddNotice("/diff: " + msg.err.Error())
		return
	}
	m.over.push(dialog.NewDiff(m.keys.Diff, diffData(msg.ch)))
}

// diffData is the dialog's read-only view of ch: each file with its part
// of the patch.
func diffData(ch agent.ItemChanges) dialog.DiffData {
	parts := dialog.SplitPatch(ch.Patch)
	d := dialog.DiffData{Since: ch.Text}
	for _, f := range ch.Files {
		d.Files = append(d.Files, dialog.DiffFile{Kind: string(f.Kind), Path: f.Path, Patch: parts[f.Path]})
	}
	return d
}
