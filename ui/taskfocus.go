package ui

import (
	"slices"

	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/panel"
)

// The task rows' focus and a task's transcript are dialog.TaskFocus and
// dialog.TaskLog; this file opens the focus and tells the dialogs (and the
// approval dialog) about the panel's tasks.

// openTaskFocus selects the first running task's row, when one runs.
func (m *Model) openTaskFocus() {
	rows := m.panel.RunningTasks()
	if len(rows) == 0 || overlayOf[*dialog.TaskFocus](m) != nil {
		return
	}
	m.panel.SelectTask(rows[0].ID)
	m.panel.Expand()
	m.over.push(dialog.NewTaskFocus(rows[0].ID))
}

// dialogTasks is the panel's tasks for a dialog.Context: those with a
// row (the running ones under an item), in the panel's order, then the
// others; nil when there is none.
func dialogTasks(p *panel.Model) []dialog.Task {
	all := p.Tasks()
	if len(all) == 0 {
		return nil
	}
	rows := p.RunningTasks()
	out := make([]dialog.Task, 0, len(all))
	for _, s := range rows {
		out = append(out, dialog.Task{ID: s.ID, Item: s.Item, Desc: s.Desc, Row: true, Log: s.Log})
	}
	for _, s := range all {
		if !slices.Contains(rows, s) {
			out = append(out, dialog.Task{ID: s.ID, Item: s.Item, Desc: s.Desc, Log: s.Log})
		}
	}
	return out
}
