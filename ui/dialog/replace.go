package dialog

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/style"
)

// Replace asks whether /export may write over a file that exists. Like
// the undo confirmation it takes its answer only after a pause (see Ask):
// yes runs replace (which writes the file, keeping its mode), no leaves
// the file as it is.
type Replace struct {
	keys     style.UndoKeyMap
	path     string
	shown    time.Time // when it opened
	diverted bool      // keys typed while it was open went to the input
	replace  tea.Cmd   // the writing, run on y
}

// NewReplace returns the question for path, shown at shown; undo's keys
// answer it ("replace it", "keep it"), and replace runs off the update
// loop once the user says yes.
func NewReplace(undo style.UndoKeyMap, path string, shown time.Time, replace tea.Cmd) *Replace {
	keys := style.UndoKeyMap{
		Confirm: key.NewBinding(key.WithKeys(undo.Confirm.Keys()...), key.WithHelp(undo.Confirm.Help().Key, "replace it")),
		Cancel:  key.NewBinding(key.WithKeys(undo.Cancel.Keys()...), key.WithHelp(undo.Cancel.Help().Key, "keep it")),
	}
	return &Replace{keys: keys, path: path, shown: shown, replace: replace}
}

// Layer puts the question with the undo confirmation.
func (r *Replace) Layer() int { return LayerUndo }

// AsksNow reports that the question always waits for y or n.
func (r *Replace) AsksNow() bool { return true }

// Update takes the keys while the question is open (see Ask); a paste and
// the wheel pass to the screen below.
func (r *Replace) Update(c Context, msg tea.Msg) (Action, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	yes, no, act := Ask(c, k, r.keys, r.shown, &r.diverted)
	switch {
	case yes:
		return Seq{Close{}, FocusInput{}, Run{r.replace}}, true
	case no:
		return Seq{Close{}, FocusInput{}, Notice{"/export cancelled: " + style.TermText(r.path) + " left as it was"}}, true
	}
	return act, true
}

// View draws the question over the bottom of the area (Height).
func (r *Replace) View(c Context, w, h int) []string {
	st := c.St
	iw := max(w-4, 10)
	lines := []string{st.DialogTitle.Render(style.TruncateWidth("Replace "+style.TermText(r.path)+"?", iw, st.Glyphs.Ellipsis))}
	lines = append(lines, GuardLines(st, r.diverted, iw)...)
	lines = append(lines, st.DialogText.Render("The file exists. Yes writes the conversation over it (its mode is kept); no leaves it as it is."))
	lines = append(lines, style.HelpLine(st, r.keys.Confirm, r.keys.Cancel))
	box := strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
	return box[:min(len(box), Height(h))]
}
