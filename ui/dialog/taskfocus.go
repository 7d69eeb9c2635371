package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/ui/style"
)

// Task is one of the turn's tasks (subagents) as the panel knows it.
type Task struct {
	ID   string // the task call's id
	Item string // the plan item it works on
	Desc string // its description (untrusted: the model wrote it)
	// Row is set when it runs and has a row in the panel: the rows
	// ctrl+x walks.
	Row bool
	Log []string // its transcript, one entry a line (shared: read only)
}

// SelectTask asks the root to mark the task row of ID in the panel ("":
// none).
type SelectTask struct{ ID string }

// StopTask asks the root to stop the task ID alone (the parent model is
// told "stopped by the user"; the turn and the other tasks go on) and to
// say so, naming it by Desc.
type StopTask struct{ ID, Desc string }

// Open asks the root to open Dialog on the stack.
type Open struct{ Dialog Dialog }

func (SelectTask) action() {}
func (StopTask) action()   {}
func (Open) action()       {}

// TaskFocus selects one of the running tasks' rows in the panel (ctrl+x
// opens it): ↑/↓ move, ctrl+x stops the selected task alone, enter opens
// its transcript (TaskLog), esc or ctrl+c (Back) leaves. The selection is a task, not a
// row: when the selected task finished, ctrl+x selects a running one again
// and stops nothing. It draws nothing itself: the panel marks the row
// SelectTask names. Other keys go on to the input. It closes itself once
// no task runs.
type TaskFocus struct{ sel string }

// NewTaskFocus returns the focus with the task sel selected.
func NewTaskFocus(sel string) *TaskFocus { return &TaskFocus{sel: sel} }

// Layer puts it with the pickers.
func (*TaskFocus) Layer() int { return LayerPicker }

// Update moves the selection, stops the selected task, opens its
// transcript or leaves.
func (f *TaskFocus) Update(c Context, msg tea.Msg) (Action, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	rows := taskRows(c.Tasks)
	if len(rows) == 0 {
		return Seq{Close{}, SelectTask{}}, false
	}
	i, found := 0, false
	for n, s := range rows {
		if s.ID == f.sel {
			i, found = n, true
		}
	}
	var act Action
	switch {
	case !found && key.Matches(k, c.Keys.Tasks, c.Keys.Confirm):
		// The selected task finished: select again, stop nothing.
		act = Notice{"the selected task finished; now selected: " + rows[i].Desc + " (" + c.Keys.Tasks.Help().Key + " again stops it)"}
	case key.Matches(k, c.Keys.SelectPrev):
		i = max(i-1, 0)
	case key.Matches(k, c.Keys.SelectNext):
		i = min(i+1, len(rows)-1)
	case key.Matches(k, c.Keys.Tasks):
		act = StopTask{ID: rows[i].ID, Desc: rows[i].Desc}
	case key.Matches(k, c.Keys.Confirm):
		act = Open{&TaskLog{id: rows[i].ID}}
	case key.Matches(k, c.Keys.Back):
		return Seq{Close{}, SelectTask{}}, true
	default:
		return nil, false
	}
	f.sel = rows[i].ID
	if act == nil {
		return SelectTask{f.sel}, true
	}
	return Seq{act, SelectTask{f.sel}}, true
}

// View draws nothing: the panel marks the selected row.
func (*TaskFocus) View(Context, int, int) []string { return nil }

// taskRows is the tasks with a row in the panel, in its order.
func taskRows(tasks []Task) []Task {
	var out []Task
	for _, t := range tasks {
		if t.Row {
			out = append(out, t)
		}
	}
	return out
}

// TaskLog shows one task's transcript, read-only: its tool calls, their
// first result lines, its answers and its result, the newest at the
// bottom; it follows while the task runs. esc or ctrl+c (Back) goes back
// to the rows.
type TaskLog struct{ id string }

// Layer puts it with the pickers, above the rows that opened it.
func (*TaskLog) Layer() int { return LayerPicker }

// Update closes on Back (esc, ctrl+c); every other key and message
// stays here.
func (t *TaskLog) Update(c Context, msg tea.Msg) (Action, bool) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, c.Keys.Back) {
		return Close{}, true
	}
	return nil, true // read-only: every key stays here
}

// View draws the task's head and the last lines of its transcript that
// fit in w×h; nothing once the task is gone or the area is too small.
func (t *TaskLog) View(c Context, w, h int) []string {
	i := -1
	for n, s := range c.Tasks {
		if s.ID == t.id {
			i = n
			break
		}
	}
	if i < 0 || w < 8 || h < 3 {
		return nil
	}
	s, st, g := c.Tasks[i], c.St, c.St.Glyphs
	inner := max(w-4, 1) // border and padding
	head := "task " + s.Desc
	if s.Item != "" {
		head += " · #" + s.Item
	}
	body := s.Log
	if n := len(body) - (h - 3); n > 0 {
		body = body[n:]
	}
	lines := []string{st.PanelTitle.Render(style.TruncateWidth(style.OneLine(head), inner, g.Ellipsis))}
	for _, l := range body {
		lines = append(lines, style.TruncateWidth(style.OneLine(l), inner, g.Ellipsis))
	}
	if len(body) == 0 {
		lines = append(lines, st.ItemMeta.Render("(nothing yet)"))
	}
	return strings.Split(st.DialogBox.Width(w).Render(strings.Join(lines, "\n")), "\n")
}
