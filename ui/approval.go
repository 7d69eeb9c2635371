package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/status"
)

// AnswerPause is how long the keyboard must have rested, since a question
// appeared and since the previous key, before a key answers it (the
// approval dialog, a plan proposal). Keys that come faster are the user
// still typing a message: they go to the input, so that the "a" of "also"
// never allows a tool for the whole session and the "y" of "yes, but"
// never approves a plan. The end-to-end tests wait it out before an
// answer.
const AnswerPause = dialog.AnswerPause

// The approval dialog is dialog.Approvals; this file opens it for the
// agent's requests and names the task that asks.

// approvalQueue returns the open approval dialog, or nil.
func (m *Model) approvalQueue() *dialog.Approvals { return overlayOf[*dialog.Approvals](m) }

// ask shows the dialog for req, or queues it behind the one shown.
func (m *Model) ask(req agent.ApprovalRequest) {
	q := m.approvalQueue()
	if q == nil {
		q = &dialog.Approvals{}
		m.over.push(q)
	}
	q.Add(m.st, req, m.panel.TaskLabel(req.Task), m.now)
}

// carryOutAside does what a question (the approval dialog, a
// confirmation) asks of the input and the turn below it: the focus back,
// a key or a paste typed aside, enter sent aside, an interrupt, the turn
// running the tool once the last approval is answered.
func (m *Model) carryOutAside(act dialog.Action) tea.Cmd {
	switch act := act.(type) {
	case dialog.FocusInput:
		m.input.Focus()
	case dialog.TypeAside:
		return m.typeAside(act.Key)
	case dialog.PasteAside:
		return m.typeAside(act.Paste)
	case dialog.SubmitInput:
		return m.submitAside()
	case dialog.Interrupt:
		m.interrupt()
	case dialog.Answered:
		m.turn.setAct(status.ActTool, act.Tool)
	}
	return nil
}

// typeAside types msg (a key or a paste) into the input while a question
// (the approval dialog, the undo confirmation) holds the focus.
func (m *Model) typeAside(msg tea.Msg) tea.Cmd {
	m.input.Focus()
	cmd := m.toInput(msg)
	m.input.Blur()
	return cmd
}

// submitAside sends what the input holds when enter is typed on the heels
// of text over the approval dialog (dialog.SubmitInput): a steer, never a
// command. A slash command (/undo would interrupt the turn and deny the
// question) waits in the input until the question is answered, and a
// toast says so.
func (m *Model) submitAside() tea.Cmd {
	if strings.HasPrefix(strings.TrimSpace(m.input.Value()), "/") {
		return m.toast(noteCommandWaits, toastFor)
	}
	return m.submit(false)
}

// noteCommandWaits is the toast of a command sent over the approval dialog.
const noteCommandWaits = "the command waits in the input: answer the question first"
