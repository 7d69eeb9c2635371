package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"github.com/tick-agent/tick/ui/style"

	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/termsafe"
)

// undoConfirm is the undo confirmation: which files change back, and a
// deliberate key to go ahead. Like the approval dialog it takes its keys
// only after a pause (see answerPause): it can open while the user types
// (after a turn /undo interrupted), and the "y" of "yes" must not
// restore files, nor the "n" of "now" cancel; such keys go to the input.
type undoConfirm struct {
	keys     UndoKeyMap
	pre      agent.UndoPreview
	arg      string    // the item as typed ("" for the last)
	shown    time.Time // when it opened
	diverted bool      // keys typed while it was open went to the input
}

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
		m.chat.addNotice("/undo: interrupting the turn first")
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
			m.chat.addNotice("/undo: " + msg.err.Error())
			return nil
		}
		m.over.push(&undoConfirm{keys: m.keys.Undo, pre: msg.pre, arg: msg.arg, shown: m.now})
		m.input.blur()
	case undoneMsg:
		if msg.err != nil {
			m.chat.addNotice("/undo: " + msg.err.Error())
			return nil
		}
		m.applyEvents(msg.evs)
		m.chat.addNotice(fmt.Sprintf("undid #%s: %s restored; the model is told with your next message", msg.pre.Item, style.Plural(len(msg.pre.Changes), "file")))
	}
	return nil
}

func (u *undoConfirm) Layer() int { return dialog.LayerUndo }

// update takes the keys while the confirmation is open (see key); a paste
// and the wheel pass to the screen below.
func (u *undoConfirm) update(m *Model, msg tea.Msg, lastKey time.Time) (tea.Cmd, bool) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return u.key(m, k, lastKey), true
	}
	return nil, false
}

// key handles a key while the confirmation is open (lastKey is the
// previous key's time; see askKey).
func (u *undoConfirm) key(m *Model, k tea.KeyPressMsg, lastKey time.Time) tea.Cmd {
	yes, no, cmd := m.askKey(k, u.keys, u.shown, lastKey, &u.diverted)
	switch {
	case yes:
		m.over.remove(u)
		m.input.focus()
		ua, ctx, arg := m.cfg.Agent, m.ctx, u.pre.Item
		return func() tea.Msg {
			pre, evs, err := ua.Undo(ctx, arg)
			return undoneMsg{pre: pre, evs: evs, err: err}
		}
	case no:
		m.over.remove(u)
		m.input.focus()
		m.chat.addNotice("/undo cancelled: nothing changed")
	}
	return cmd
}

// askKey reads k for a question that waits for a deliberate answer
// (/undo's and /rewind's confirmation; shown is when it appeared, lastKey
// the previous key's time). Text typed without a pause, or text that is
// no answer, goes to the input (enter is held back: nothing is sent while
// the question is open) and sets *diverted, so the question says where
// the keys went; otherwise yes or no says which answer k gave.
func (m *Model) askKey(k tea.KeyPressMsg, keys UndoKeyMap, shown, lastKey time.Time, diverted *bool) (yes, no bool, cmd tea.Cmd) {
	switch {
	case isTyping(k, m.keys) && (!deliberate(m.now, shown, lastKey) || !key.Matches(k, keys.Confirm, keys.Cancel)):
		*diverted = true
		if key.Matches(k, m.keys.Send) {
			return false, false, nil
		}
		return false, false, m.typeAside(k)
	case key.Matches(k, keys.Confirm):
		return true, false, nil
	case key.Matches(k, keys.Cancel):
		return false, true, nil
	}
	return false, false, nil
}

// view draws the confirmation over the bottom of the area (dialogHeight).
func (u *undoConfirm) view(m *Model, w, h int) []string {
	return u.box(m.st, w, dialogHeight(h))
}

// box draws the confirmation in at most h lines of width w.
func (u *undoConfirm) box(st *Styles, w, h int) []string {
	iw := max(w-4, 10)
	title := fmt.Sprintf("Undo #%s %s", u.pre.Item, u.pre.Text)
	if len(u.pre.Undone) > 1 {
		title += " and #" + strings.Join(u.pre.Undone[1:], ", #")
	}
	title = style.OneLine(title) // the model chose the items' ids and text
	lines := []string{st.DialogTitle.Render(ansi.Truncate(title, iw, st.Glyphs.Ellipsis))}
	lines = append(lines, guardLines(st, u.diverted, iw)...)
	lines = append(lines, st.DialogText.Render("The workspace goes back to its state before #"+style.OneLine(u.pre.Item)+" started:"))
	lines = append(lines, changeLines(st, u.pre.Changes, iw, max(h-4-len(lines), 1), "  no file changed since; only the plan is marked")...)
	lines = append(lines, style.HelpLine(st, u.keys.Confirm, u.keys.Cancel))
	return strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
}

// termText makes a file name safe to draw: control characters become "?"
// (so that an escape sequence stays visible as text), and invisible ones
// are shown as termsafe shows them.
func termText(s string) string {
	return termsafe.Text(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '?'
		}
		return r
	}, s))
}
