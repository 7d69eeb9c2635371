package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/style"
)

// PlanEditor is the plan editor (/plan or ctrl+p): the panel takes focus
// and each key is one edit the agent applies at once. The selection lives
// in the panel (Context.Plan, Context.PlanSel; the editor asks to move it
// with SelectPlanItem); the editor holds the key map and the text being
// typed for an add, an edit or a cancel reason. It draws in the panel
// (Footer), not over the chat.
type PlanEditor struct {
	keys   style.PlanKeyMap
	typing agent.PlanOp // PlanAdd, PlanText or PlanCancel while typing; "" otherwise
	target string       // the item the typed text applies to
	ti     textinput.Model
	err    string // the last refused edit
}

// SelectPlanItem moves the panel's selection to the item at index Sel.
type SelectPlanItem struct{ Sel int }

// EditPlanItem sends Edit to the agent and applies the events it caused;
// a refused edit comes back to the editor (Refused).
type EditPlanItem struct{ Edit agent.PlanEdit }

// CloseEditor closes the plan editor and gives the panel and the focus
// back.
type CloseEditor struct{}

// ShowItemChanges asks the agent what the item ID changed and opens an
// ItemDiff with it.
type ShowItemChanges struct{ ID string }

func (SelectPlanItem) action()  {}
func (EditPlanItem) action()    {}
func (CloseEditor) action()     {}
func (ShowItemChanges) action() {}

// NewPlanEditor returns the editor, its text field styled for st.
func NewPlanEditor(st *style.Styles, keys style.PlanKeyMap) *PlanEditor {
	ti := textinput.New()
	s := textinput.DefaultStyles(st.Dark)
	s.Cursor.Blink = false
	ti.SetStyles(s)
	ti.CharLimit = 500
	return &PlanEditor{keys: keys, ti: ti}
}

// Layer puts the editor above the pickers, below the questions.
func (e *PlanEditor) Layer() int { return LayerEditor }

// Typing reports the edit whose text is typed ("" when none).
func (e *PlanEditor) Typing() agent.PlanOp { return e.typing }

// Refused shows why the agent refused an edit (or why an item's changes
// cannot be shown) until the next key.
func (e *PlanEditor) Refused(why string) { e.err = why }

// Update takes every key and paste while the editor is open (the edits go
// to the agent at once); the wheel scrolls the chat.
func (e *PlanEditor) Update(c Context, msg tea.Msg) (Action, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if id := selectedItem(c); e.typing == "" && id != "" && key.Matches(msg, e.keys.Changes) {
			return ShowItemChanges{id}, true
		}
		return e.key(c, msg), true
	case tea.PasteMsg:
		return e.paste(msg), true
	}
	return nil, false
}

// View draws nothing over the chat: the editor draws in the panel (Footer).
func (e *PlanEditor) View(Context, int, int) []string { return nil }

// selectedItem is the id of the item selected in the panel, or "".
func selectedItem(c Context) string {
	if c.PlanSel < 0 || c.PlanSel >= len(c.Plan.Items) {
		return ""
	}
	return c.Plan.Items[c.PlanSel].ID
}

// key handles a key with the panel focused.
func (e *PlanEditor) key(c Context, k tea.KeyPressMsg) Action {
	if e.typing != "" {
		return e.typed(k)
	}
	keys, sel, n := e.keys, c.PlanSel, len(c.Plan.Items)
	cur := selectedItem(c)
	e.err = ""
	switch {
	case key.Matches(k, keys.Close):
		return CloseEditor{}
	case key.Matches(k, keys.Up):
		return SelectPlanItem{max(sel-1, 0)}
	case key.Matches(k, keys.Down):
		return SelectPlanItem{min(sel+1, n-1)}
	case key.Matches(k, keys.Add):
		return e.startTyping(agent.PlanAdd, cur, "")
	case key.Matches(k, keys.Edit) && cur != "":
		return e.startTyping(agent.PlanText, cur, c.Plan.Items[sel].Text)
	case key.Matches(k, keys.Cancel) && cur != "":
		return e.startTyping(agent.PlanCancel, cur, "")
	case key.Matches(k, keys.Delete) && cur != "":
		return EditPlanItem{agent.PlanEdit{Op: agent.PlanDrop, ID: cur}}
	case key.Matches(k, keys.MoveUp) && cur != "" && sel > 0:
		return Seq{SelectPlanItem{sel - 1}, EditPlanItem{agent.PlanEdit{Op: agent.PlanMove, ID: cur, To: sel}}}
	case key.Matches(k, keys.MoveDown) && cur != "" && sel < n-1:
		return Seq{SelectPlanItem{sel + 1}, EditPlanItem{agent.PlanEdit{Op: agent.PlanMove, ID: cur, To: sel + 2}}}
	case key.Matches(k, keys.Gate) && cur != "":
		return EditPlanItem{agent.PlanEdit{Op: agent.PlanStopAfter, ID: cur}}
	}
	return nil
}

// startTyping opens the text field for op on the item id.
func (e *PlanEditor) startTyping(op agent.PlanOp, id, value string) Action {
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
	return run(e.ti.Focus())
}

// typed handles a key while text is typed.
func (e *PlanEditor) typed(k tea.KeyPressMsg) Action {
	switch {
	case key.Matches(k, e.keys.Close):
		e.typing = ""
		e.ti.Blur()
		return nil
	case key.Matches(k, e.keys.Confirm):
		text := strings.TrimSpace(e.ti.Value())
		op, id := e.typing, e.target
		e.typing = ""
		e.ti.Blur()
		if text == "" {
			return nil
		}
		ed := agent.PlanEdit{Op: op, ID: id, Text: text}
		if op == agent.PlanCancel {
			ed.Text, ed.Reason = "", text
		}
		return EditPlanItem{ed}
	}
	var cmd tea.Cmd
	e.ti, cmd = e.ti.Update(k)
	return run(cmd)
}

// paste sends pasted text to the text field.
func (e *PlanEditor) paste(p tea.PasteMsg) Action {
	if e.typing == "" {
		return nil
	}
	var cmd tea.Cmd
	e.ti, cmd = e.ti.Update(p)
	return run(cmd)
}

// run is Run{cmd}, or nil for no command.
func run(cmd tea.Cmd) Action {
	if cmd == nil {
		return nil
	}
	return Run{cmd}
}

// Footer is what the editor shows under the panel's items at width w: the
// text field while typing, else the refused edit and the keys. It runs
// in Update (render), never in View.
func (e *PlanEditor) Footer(st *style.Styles, w int) []string {
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
