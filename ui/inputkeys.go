package ui

import (
	"github.com/tick-agent/tick/ui/status"

	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Notes in the status bar for the keys of an idle input.
const (
	noteQuitAgain   = "ctrl+c again to quit (2s) · ctrl+d quits on an empty input"
	noteClearedQuit = "input cleared · ctrl+c again to quit (2s)"
	noteTabIdle     = "tab completes /commands · enter sends"
)

// inputKey handles the keys of an idle input and of the / popup before the
// root's own keys: completion, ctrl+c twice and ctrl+d to quit, ctrl+r to
// retry, and tab (which never sends on an idle screen). armed says that
// the previous key was a ctrl+c that asked for a second one. ok is false
// when the key is not one of these.
func (m *Model) inputKey(k tea.KeyPressMsg, armed bool) (cmd tea.Cmd, ok bool) {
	if cmd, ok := m.input.MentionKey(k, m.fileIndex()); ok {
		return cmd, true
	}
	if run, ok := m.input.CompleteKey(k, m.completions); ok {
		if run {
			return m.submit(false), true
		}
		return nil, true
	}
	if m.running() {
		return nil, false
	}
	keys := m.keys
	switch {
	case key.Matches(k, keys.Quit):
		return m.idleCtrlC(armed), true
	case key.Matches(k, keys.Exit) && m.input.Empty():
		return m.quit(), true
	case key.Matches(k, keys.Retry):
		return m.retry(m), true
	case key.Matches(k, keys.Queue) && m.turn == nil:
		m.note = noteTabIdle
		return nil, true
	}
	return nil, false
}

// idleCtrlC clears a non-empty input; on an empty one it quits when the
// previous key was ctrl+c too, less than quitWindow ago, and otherwise
// asks for a second press within it.
func (m *Model) idleCtrlC(armed bool) tea.Cmd {
	m.closeHelp()
	note := noteQuitAgain
	switch {
	case !m.input.Empty():
		m.input.Reset()
		note = noteClearedQuit
	case armed:
		return m.quit()
	}
	m.quitArmed, m.quitUntil = true, m.now.Add(quitWindow)
	return m.toast(note, quitWindow)
}

// canRetry reports whether the last turn failed and the agent can send it
// again.
func (m *Model) canRetry() bool {
	return m.cfg.Agent.CanRetry()
}

// retry sends the failed turn again (ctrl+r, /retry) through the same
// machinery as a turn, without adding the prompt to the chat a second
// time.
func (m *Model) retry(*Model) tea.Cmd {
	if m.turn != nil {
		m.chat.AddNotice("/retry waits for the running turn: press esc to interrupt it first")
		return nil
	}
	r := m.cfg.Agent
	if !m.canRetry() {
		m.chat.AddNotice("nothing to retry: the last turn did not fail")
		return nil
	}
	m.chat.AddNotice("retrying the failed turn")
	m.chat.ToBottom()
	ctx, cancel := context.WithCancel(m.ctx)
	m.panel.TurnStart(m.now)
	return m.begin(&turn{cancel: cancel, act: status.ActThinking, ch: r.Retry(ctx)})
}
