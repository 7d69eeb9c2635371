package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/style"
)

// exportAskMsg says that /export's file exists: the user is asked before
// it is replaced.
type exportAskMsg struct {
	dir, name string // as /export was given them
	path      string // the file that exists
	text      string // the conversation to write
}

// exportConfirm asks whether /export may replace an existing file. Like
// the undo confirmation it takes its answer only after a pause; yes
// replaces the file (keeping its mode), no leaves it as it is.
type exportConfirm struct {
	keys     UndoKeyMap
	ask      exportAskMsg
	shown    time.Time
	diverted bool
}

// handleExportAsk opens the question.
func (m *Model) handleExportAsk(msg exportAskMsg) tea.Cmd {
	keys := UndoKeyMap{
		Confirm: key.NewBinding(key.WithKeys(m.keys.Undo.Confirm.Keys()...), key.WithHelp(m.keys.Undo.Confirm.Help().Key, "replace it")),
		Cancel:  key.NewBinding(key.WithKeys(m.keys.Undo.Cancel.Keys()...), key.WithHelp(m.keys.Undo.Cancel.Help().Key, "keep it")),
	}
	m.over.push(&exportConfirm{keys: keys, ask: msg, shown: m.now})
	m.input.blur()
	return nil
}

func (e *exportConfirm) Layer() int { return dialog.LayerUndo }

// update takes the keys while the question is open; a paste and the wheel
// pass to the screen below.
func (e *exportConfirm) update(m *Model, msg tea.Msg, lastKey time.Time) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	yes, no, cmd := m.askKey(k, e.keys, e.shown, lastKey, &e.diverted)
	switch {
	case yes:
		m.over.remove(e)
		m.input.focus()
		a := e.ask
		return func() tea.Msg {
			path, err := writeExport(a.dir, a.name, []byte(a.text), true)
			if err != nil {
				return NoticeMsg{Text: "/export: " + err.Error()}
			}
			return NoticeMsg{Text: "exported the conversation to " + path + " (replaced)"}
		}, true
	case no:
		m.over.remove(e)
		m.input.focus()
		m.chat.addNotice("/export cancelled: " + dialog.TermText(e.ask.path) + " left as it was")
	}
	return cmd, true
}

// view draws the question over the bottom of the area.
func (e *exportConfirm) view(m *Model, w, h int) []string {
	st := m.st
	iw := max(w-4, 10)
	lines := []string{st.DialogTitle.Render(ansi.Truncate("Replace "+dialog.TermText(e.ask.path)+"?", iw, st.Glyphs.Ellipsis))}
	lines = append(lines, dialog.GuardLines(st, e.diverted, iw)...)
	lines = append(lines, st.DialogText.Render("The file exists. Yes writes the conversation over it (its mode is kept); no leaves it as it is."))
	lines = append(lines, style.HelpLine(st, e.keys.Confirm, e.keys.Cancel))
	box := strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
	return box[:min(len(box), dialog.Height(h))]
}
