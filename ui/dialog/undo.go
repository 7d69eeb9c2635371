package dialog

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/style"
)

// Undo is the undo confirmation: which files change back, and a
// deliberate key to go ahead. Like the approval dialog it takes its keys
// only after a pause (see dialog.AnswerPause): it can open while the user types
// (after a turn /undo interrupted), and the "y" of "yes" must not
// restore files, nor the "n" of "now" cancel; such keys go to the input.
type Undo struct {
	keys     style.UndoKeyMap
	pre      agent.UndoPreview
	shown    time.Time // when it opened
	diverted bool      // keys typed while it was open went to the input
	undo     tea.Cmd   // the agent's undo, run on y
}

// NewUndo returns the confirmation of pre, shown at shown; undo runs the
// agent's undo off the update loop once the user says y.
func NewUndo(keys style.UndoKeyMap, pre agent.UndoPreview, shown time.Time, undo tea.Cmd) *Undo {
	return &Undo{keys: keys, pre: pre, shown: shown, undo: undo}
}

// Layer puts the confirmation with /rewind, above the pickers and the
// editor.
func (u *Undo) Layer() int { return LayerUndo }

// AsksNow reports that the confirmation always waits for y or n.
func (u *Undo) AsksNow() bool { return true }

// Update takes the keys while the confirmation is open (see Ask); a paste
// and the wheel pass to the screen below.
func (u *Undo) Update(c Context, msg tea.Msg) (Action, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	yes, no, act := Ask(c, k, u.keys, u.shown, &u.diverted)
	switch {
	case yes:
		return Seq{Close{}, FocusInput{}, Run{u.undo}}, true
	case no:
		return Seq{Close{}, FocusInput{}, Notice{"/undo cancelled: nothing changed"}}, true
	}
	return act, true
}

// View draws the confirmation over the bottom of the area (Height).
func (u *Undo) View(c Context, w, h int) []string {
	return u.box(c.St, w, Height(h))
}

// box draws the confirmation in at most h lines of width w.
func (u *Undo) box(st *style.Styles, w, h int) []string {
	iw := max(w-4, 10)
	title := fmt.Sprintf("Undo #%s %s", u.pre.Item, u.pre.Text)
	if u.pre.Item == "" { // not an item: the user's apply of a kept task
		title = "Undo " + u.pre.Text
	}
	if len(u.pre.Undone) > 1 {
		title += " and #" + strings.Join(u.pre.Undone[1:], ", #")
	}
	title = style.OneLine(title) // the model chose the items' ids and text
	lines := []string{st.DialogTitle.Render(style.TruncateWidth(title, iw, st.Glyphs.Ellipsis))}
	lines = append(lines, GuardLines(st, u.diverted, iw)...)
	back := "The workspace goes back to its state before #" + style.OneLine(u.pre.Item) + " started:"
	if u.pre.Item == "" {
		back = "The workspace goes back to its state before " + style.OneLine(u.pre.Text) + ":"
	}
	lines = append(lines, st.DialogText.Render(back))
	lines = append(lines, ChangeLines(st, u.pre.Changes, iw, max(h-4-len(lines), 1), "  no file changed since; only the plan is marked")...)
	lines = append(lines, style.HelpLine(st, u.keys.Confirm, u.keys.Cancel))
	return strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
}
