package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"github.com/tick-agent/tick/ui/style"

	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
)

// planEditor is the plan editor: the selection lives in the panel (its
// sel), the editor holds the key map and the text being typed for an add,
// an edit or a cancel reason.
type planEditor struct {
	keys   PlanKeyMap
	typing agent.PlanOp // PlanAdd, PlanText or PlanCancel while typing; "" otherwise
	target string       // the item the typed text applies to
	ti     textinput.Model
	err    string // the last refused edit
}

func newPlanEditor(st *Styles, keys PlanKeyMap) *planEditor {
	ti := textinput.New()
	s := textinput.DefaultStyles(st.Dark)
	s.Cursor.Blink = false
	ti.SetStyles(s)
	ti.CharLimit = 500
	return &planEditor{keys: keys, ti: ti}
}

func (e *planEditor) Layer() int { return dialog.LayerEditor }

// update takes every key and paste while the editor is open (the edits go
// to the agent at once); the wheel scrolls the chat.
func (e *planEditor) update(m *Model, msg tea.Msg, _ time.Time) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if id := selectedItem(m.panel); e.typing == "" && id != "" && key.Matches(msg, e.keys.Changes) {
			return m.openItemDiff(id), true
		}
		edit, closed, cmd := e.key(msg, m.panel)
		if closed {
			m.closeEditor()
		}
		if edit != nil {
			m.applyPlanEdit(*edit)
		}
		return cmd, true
	case tea.PasteMsg:
		return e.paste(msg), true
	}
	return nil, false
}

// selectedItem is the id of the item selected in p, or "".
func selectedItem(p *panel) string {
	if p.sel < 0 || p.sel >= len(p.list.Items) {
		return ""
	}
	return p.list.Items[p.sel].ID
}

// view draws nothing: the editor draws in the panel (its footer).
func (e *planEditor) view(*Model, int, int) []string { return nil }

// key handles a key with the panel p focused. It returns the edit to
// apply, if any, and whether the editor closes.
func (e *planEditor) key(k tea.KeyPressMsg, p *panel) (edit *agent.PlanEdit, closed bool, cmd tea.Cmd) {
	if e.typing != "" {
		return e.typed(k)
	}
	keys := e.keys
	n := len(p.list.Items)
	cur := ""
	if p.sel >= 0 && p.sel < n {
		cur = p.list.Items[p.sel].ID
	}
	e.err = ""
	switch {
	case key.Matches(k, keys.Close):
		return nil, true, nil
	case key.Matches(k, keys.Up):
		p.sel = max(p.sel-1, 0)
	case key.Matches(k, keys.Down):
		p.sel = min(p.sel+1, n-1)
	case key.Matches(k, keys.Add):
		return nil, false, e.startTyping(agent.PlanAdd, cur, "")
	case key.Matches(k, keys.Edit) && cur != "":
		return nil, false, e.startTyping(agent.PlanText, cur, p.list.Items[p.sel].Text)
	case key.Matches(k, keys.Cancel) && cur != "":
		return nil, false, e.startTyping(agent.PlanCancel, cur, "")
	case key.Matches(k, keys.Delete) && cur != "":
		return &agent.PlanEdit{Op: agent.PlanDrop, ID: cur}, false, nil
	case key.Matches(k, keys.MoveUp) && cur != "" && p.sel > 0:
		p.sel--
		return &agent.PlanEdit{Op: agent.PlanMove, ID: cur, To: p.sel + 1}, false, nil
	case key.Matches(k, keys.MoveDown) && cur != "" && p.sel < n-1:
		p.sel++
		return &agent.PlanEdit{Op: agent.PlanMove, ID: cur, To: p.sel + 1}, false, nil
	case key.Matches(k, keys.Gate) && cur != "":
		return &agent.PlanEdit{Op: agent.PlanStopAfter, ID: cur}, false, nil
	}
	return nil, false, nil
}

// startTyping opens the text field for op on the item id.
func (e *planEditor) startTyping(op agent.PlanOp, id, value string) tea.Cmd {
	e.typing, e.target = op, id
	switch op {
	case agent.PlanAdd:
		e.ti.Prompt = "Add after #" + id + ": "
		if id == "" {
			e.ti.Prompt = "Add: "
		}
	case agent.PlanText:
		e.ti.Prompt = "Edit #" + id + ": "
	case agent.PlanCancel:
		e.ti.Prompt = "Cancel #" + id + ", because: "
	}
	e.ti.SetValue(value)
	e.ti.CursorEnd()
	return e.ti.Focus()
}

// typed handles a key while text is typed.
func (e *planEditor) typed(k tea.KeyPressMsg) (*agent.PlanEdit, bool, tea.Cmd) {
	switch {
	case key.Matches(k, e.keys.Close):
		e.typing = ""
		e.ti.Blur()
		return nil, false, nil
	case key.Matches(k, e.keys.Confirm):
		text := strings.TrimSpace(e.ti.Value())
		op, id := e.typing, e.target
		e.typing = ""
		e.ti.Blur()
		if text == "" {
			return nil, false, nil
		}
		ed := &agent.PlanEdit{Op: op, ID: id, Text: text}
		if op == agent.PlanCancel {
			ed.Text, ed.Reason = "", text
		}
		return ed, false, nil
	}
	var cmd tea.Cmd
	e.ti, cmd = e.ti.Update(k)
	return nil, false, cmd
}

// paste sends pasted text to the text field.
func (e *planEditor) paste(p tea.PasteMsg) tea.Cmd {
	if e.typing == "" {
		return nil
	}
	var cmd tea.Cmd
	e.ti, cmd = e.ti.Update(p)
	return cmd
}

// footer is what the editor shows under the panel's items at width w: the
// text field while typing, else the refused edit and the keys.
func (e *planEditor) footer(st *Styles, w int) []string {
	if e.typing != "" {
		e.ti.SetWidth(max(w-ansi.StringWidth(e.ti.Prompt)-1, 10))
		return []string{e.ti.View()}
	}
	var out []string
	if e.err != "" {
		out = append(out, st.ErrorTitle.Render(style.OneLine(e.err)))
	}
	var parts []string
	for _, b := range e.keys.Bindings() {
		parts = append(parts, b.Help().Key+" "+b.Help().Desc)
	}
	return append(out, style.WrapHelp(st, parts, w)...)
}
