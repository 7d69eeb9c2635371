package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"github.com/tick-agent/tick/ui/style"

	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// taskFocus selects one of the running tasks' rows in the panel (ctrl+x
// opens it): ↑/↓ move, ctrl+x stops the selected task alone (the parent
// model is told "stopped by the user"; the turn and the other tasks go
// on), enter opens its transcript (taskLog), esc leaves. The selection is
// a task, not a row: when the selected task finished, ctrl+x selects a
// running one again and stops nothing. It draws nothing
// itself: the panel marks the selected row. Other keys go on to the input.
// It closes itself once no task runs.
type taskFocus struct{}

func (*taskFocus) Layer() int { return dialog.LayerPicker }

func (f *taskFocus) update(m *Model, msg tea.Msg, _ time.Time) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	rows := m.panel.runningTasks()
	if len(rows) == 0 {
		m.closeTaskFocus()
		return nil, false
	}
	i, found := 0, false
	for n, s := range rows {
		if s.id == m.panel.taskSel {
			i, found = n, true
		}
	}
	switch {
	case !found && key.Matches(k, m.keys.Tasks, m.keys.Confirm):
		// The selected task finished: select again, stop nothing.
		m.chat.addNotice("the selected task finished; now selected: " + rows[i].desc + " (" + m.keys.Tasks.Help().Key + " again stops it)")
	case key.Matches(k, m.keys.SelectPrev):
		i = max(i-1, 0)
	case key.Matches(k, m.keys.SelectNext):
		i = min(i+1, len(rows)-1)
	case key.Matches(k, m.keys.Tasks):
		if m.cfg.Agent.StopTask(rows[i].id) {
			m.chat.addNotice("stopping the task " + rows[i].desc)
		}
	case key.Matches(k, m.keys.Confirm):
		m.over.push(&taskLog{id: rows[i].id})
	case key.Matches(k, m.keys.Dismiss):
		m.closeTaskFocus()
		return nil, true
	default:
		return nil, false
	}
	m.panel.taskSel = rows[i].id
	return nil, true
}

func (*taskFocus) view(*Model, int, int) []string { return nil }

// openTaskFocus selects the first running task's row, when one runs.
func (m *Model) openTaskFocus() {
	rows := m.panel.runningTasks()
	if len(rows) == 0 || overlayOf[*taskFocus](m) != nil {
		return
	}
	m.panel.taskSel = rows[0].id
	m.panel.expanded = true
	m.over.push(&taskFocus{})
}

// closeTaskFocus leaves the task rows (and their transcript, if open).
func (m *Model) closeTaskFocus() {
	m.over.remove(overlayOf[*taskLog](m))
	m.over.remove(overlayOf[*taskFocus](m))
	m.panel.taskSel = ""
}

// taskLog shows one task's transcript, read-only: its tool calls, their
// first result lines, its answers and its result, the newest at the
// bottom; it follows while the task runs. esc goes back to the rows.
type taskLog struct{ id string }

func (*taskLog) Layer() int { return dialog.LayerPicker }

func (t *taskLog) update(m *Model, msg tea.Msg, _ time.Time) (tea.Cmd, bool) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.keys.Dismiss) {
		m.over.remove(t)
	}
	return nil, true // read-only: every key stays here
}

func (t *taskLog) view(m *Model, w, h int) []string {
	s := m.panel.sub(t.id)
	if s == nil || w < 8 || h < 3 {
		return nil
	}
	st, g := m.st, m.st.Glyphs
	inner := max(w-4, 1) // border and padding
	head := "task " + s.desc
	if s.item != "" {
		head += " · #" + s.item
	}
	body := s.log
	if n := len(body) - (h - 3); n > 0 {
		body = body[n:]
	}
	lines := []string{st.PanelTitle.Render(ansi.Truncate(style.OneLine(head), inner, g.Ellipsis))}
	for _, l := range body {
		lines = append(lines, ansi.Truncate(style.OneLine(l), inner, g.Ellipsis))
	}
	if len(body) == 0 {
		lines = append(lines, st.ItemMeta.Render("(nothing yet)"))
	}
	return strings.Split(st.DialogBox.Width(w).Render(strings.Join(lines, "\n")), "\n")
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
