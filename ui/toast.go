package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// A toast is a transient notice in the status bar ("copied …", "ctrl+c
// again to quit"): it says what just happened and fades, leaving the chat
// to what belongs to the conversation. The next key clears it too.

// How long a toast stays, and how long ctrl+c stays armed for a second
// press (the hint says so).
const (
	toastFor   = 3 * time.Second
	quitWindow = 2 * time.Second
)

// toastDoneMsg ends the toast of number seq, unless a newer one replaced
// it.
type toastDoneMsg struct{ seq int }

// toastMsg shows Text as a toast; a tea.Cmd that finishes later (the
// system clipboard's copy) returns it.
type toastMsg struct{ Text string }

// afterFunc makes the command that delivers msg after d: tea.Tick in the
// program, a command that never fires in the tests (which deliver the
// message themselves).
type afterFunc func(d time.Duration, msg tea.Msg) tea.Cmd

// tickAfter is the program's afterFunc.
func tickAfter(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// toast shows text in the status bar for d and returns the command that
// ends it.
func (m *Model) toast(text string, d time.Duration) tea.Cmd {
	m.note = text
	m.toastSeq++
	return m.after(d, toastDoneMsg{seq: m.toastSeq})
}

// toastDone ends the toast of msg when it is still the one shown, and
// with it an armed ctrl+c.
func (m *Model) toastDone(msg toastDoneMsg) {
	if msg.seq != m.toastSeq {
		return
	}
	m.note = ""
	m.quitArmed = false
}
