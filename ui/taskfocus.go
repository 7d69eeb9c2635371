package ui

import (
	"slices"

	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/style"
)

// The task rows' focus and a task's transcript are dialog.TaskFocus and
// dialog.TaskLog; this file opens the focus and tells the dialogs (and the
// approval dialog) about the panel's tasks.

// openTaskFocus selects the first running task's row, when one runs.
func (m *Model) openTaskFocus() {
	rows := m.panel.runningTasks()
	if len(rows) == 0 || overlayOf[*dialog.TaskFocus](m) != nil {
		return
	}
	m.panel.taskSel = rows[0].id
	m.panel.expanded = true
	m.over.push(dialog.NewTaskFocus(rows[0].id))
}

// dialogTasks is the panel's tasks for a dialog.Context: those with a
// row (the running ones under an item), in the panel's order, then the
// others; nil when there is none.
func (p *panel) dialogTasks() []dialog.Task {
	if len(p.subs) == 0 {
		return nil
	}
	rows := p.runningTasks()
	out := make([]dialog.Task, 0, len(p.subs))
	for _, s := range rows {
		out = append(out, dialog.Task{ID: s.id, Item: s.item, Desc: s.desc, Row: true, Log: s.log})
	}
	for _, s := range p.subs {
		if !slices.Contains(rows, s) {
			out = append(out, dialog.Task{ID: s.id, Item: s.item, Desc: s.desc, Log: s.log})
		}
	}
	return out
}

// taskLabel names the task of call id and its item for the approval
// dialog ("" when id is no known task).
func (p *panel) taskLabel(id string) string {
	s := p.sub(id)
	if id == "" || s == nil {
		return ""
	}
	label := "from the task " + s.desc
	if i := p.list.Find(s.item); i >= 0 {
		label += " · item #" + s.item + " " + style.OneLine(p.list.Items[i].Text)
	}
	return label
}
