package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/dialog"
)

// AnswerHold is how long a key that would answer a question (the approval
// dialog, the undo and /rewind confirmations, /export's overwrite, a
// proposed plan, /model's "save as default?") is held before it answers:
// a key after a rest may be the first of a burst of typing ("also do it"
// over "Allow …?"). When another key follows within AnswerHold, the held
// key and the rest go to the input and nothing is answered; when the
// keyboard stays quiet, the held key answers as if it had just come.
const AnswerHold = 300 * time.Millisecond

// answerHold is AnswerHold, as the root uses it.
const answerHold = AnswerHold

// asksNow reports whether the overlay on top asks a question a single
// typed key answers now (not while a reason is typed, not while a list is
// browsed): it says so as a dialog.Asker or dialog.ContextAsker.
func (m *Model) asksNow() bool {
	switch q := m.over.top().(type) {
	case dialog.Asker:
		return q.AsksNow()
	case dialog.ContextAsker:
		return q.AsksIn(m.dialogContext(time.Time{}))
	}
	return false
}

// heldKey is a key held back from a question (see AnswerHold): the key,
// when it came, and when the key before it came.
type heldKey struct {
	k        tea.KeyPressMsg
	at, prev time.Time
	on       bool // a key is held
	seq      int  // the hold's number, named by its heldMsg
}

// heldMsg is the end of a key's hold: seq names the hold it ends.
type heldMsg struct{ seq int }

// holdKey reports whether k, which came after a key at lastKey, is held
// back from the question on top (it returns the command that ends the
// hold): it is typed text or enter after a rest, and the overlay on top
// asks a question now.
func (m *Model) holdKey(k tea.KeyPressMsg, lastKey time.Time) (tea.Cmd, bool) {
	if !m.asksNow() || !dialog.IsTyping(k, m.keys) || m.now.Sub(lastKey) < dialog.AnswerPause {
		return nil, false
	}
	seq := m.held.seq + 1
	m.held = heldKey{k: k, at: m.now, prev: lastKey, on: true, seq: seq}
	return tea.Tick(answerHold, func(time.Time) tea.Msg { return heldMsg{seq: seq} }), true
}

// flushHeld gives a held key to the screen as typing, because another key
// followed it within the hold: judged against its own time as the key
// before, it is no deliberate answer, so the question passes it to the
// input (and says so).
func (m *Model) flushHeld() tea.Cmd {
	h := m.held
	if !h.on {
		return nil
	}
	m.held.on = false
	return m.asOf(h.at, func() tea.Cmd { return m.dispatchKey(h.k, h.at) })
}

// releaseHeld lets a held key answer after the quiet hold (msg names the
// hold; a hold already flushed is ignored). The key is judged as of when
// it came, against the key before it.
func (m *Model) releaseHeld(msg heldMsg) tea.Cmd {
	h := m.held
	if !h.on || h.seq != msg.seq {
		return nil
	}
	m.held.on = false
	return m.asOf(h.at, func() tea.Cmd { return m.dispatchKey(h.k, h.prev) })
}

// asOf runs f with the model's clock reading at, so that a held key is
// judged by when it came, and restores the clock after.
func (m *Model) asOf(at time.Time, f func() tea.Cmd) tea.Cmd {
	now := m.now
	m.now = at
	defer func() { m.now = now }()
	return f()
}
