package ui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/style"
)

// A task whose changes conflicted with the workspace is kept, numbered
// (agent.Notice.KeptTask). Its notice opens an offer (dialog.Kept): p
// shows its patch in the /diff dialog, a applies it over the current
// files. /tasks does the same later: /tasks lists the kept tasks,
// /tasks patch N shows one's patch, /tasks apply N applies it.

// taskPatchMsg carries a kept task's patch, asked off the update loop.
type taskPatchMsg struct {
	n   int
	ch  agent.ItemChanges
	err error
}

// taskAppliedMsg carries how applying a kept task went.
type taskAppliedMsg struct {
	n   int
	evs []agent.Event
	err error
}

// offerKept shows the notice of a kept task, saying how to apply it
// later, and opens its offer.
func (m *Model) offerKept(ev agent.Notice) {
	n := ev.KeptTask
	m.chat.AddNotice(fmt.Sprintf("%s · /tasks patch %d shows its patch, /tasks apply %d applies it over the current files", ev.Text, n, n))
	desc := ""
	for _, k := range m.cfg.Agent.KeptTasks() {
		if k.N == n {
			desc = k.Desc
		}
	}
	m.over.push(dialog.NewKept(m.keys.Kept, n, desc, m.now, m.taskPatch(n), m.applyTask(n)))
}

// taskPatch asks the agent for kept task n's patch.
func (m *Model) taskPatch(n int) tea.Cmd {
	ta := m.cfg.Agent
	return func() tea.Msg {
		ch, err := ta.TaskPatch(n)
		return taskPatchMsg{n: n, ch: ch, err: err}
	}
}

// applyTask applies kept task n over the current files, off the update
// loop.
func (m *Model) applyTask(n int) tea.Cmd {
	ta, ctx := m.cfg.Agent, m.ctx
	return func() tea.Msg {
		evs, err := ta.ApplyTask(ctx, n)
		return taskAppliedMsg{n: n, evs: evs, err: err}
	}
}

// tasksCommand runs /tasks [patch N | apply N].
func (m *Model) tasksCommand(args string) tea.Cmd {
	f := strings.Fields(args)
	if len(f) == 0 {
		m.listKept()
		return nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(f[len(f)-1], "#"))
	if len(f) != 2 || err != nil {
		m.chat.AddNotice("/tasks: give patch N or apply N (N as /tasks lists it)")
		return nil
	}
	switch f[0] {
	case "patch":
		return m.taskPatch(n)
	case "apply":
		m.closeKept(n)
		return m.applyTask(n)
	}
	m.chat.AddNotice("/tasks: unknown " + style.OneLine(f[0]) + ": give patch N or apply N")
	return nil
}

// listKept says which tasks are kept with conflicting changes.
func (m *Model) listKept() {
	kept := m.cfg.Agent.KeptTasks()
	if len(kept) == 0 {
		m.chat.AddNotice("/tasks: no task was kept with conflicting changes in this run")
		return
	}
	lines := []string{"tasks kept with conflicting changes (/tasks patch N, /tasks apply N):"}
	for _, k := range kept {
		state := "not applied"
		if k.Applied {
			state = "applied"
		}
		lines = append(lines, fmt.Sprintf("  %d  %s  %s · %s", k.N, style.OneLine(k.Desc), state, style.OneLine(k.Dir)))
	}
	m.chat.AddNotice(strings.Join(lines, "\n"))
}

// closeKept closes the offer of kept task n, if open.
func (m *Model) closeKept(n int) {
	for _, o := range m.over {
		if k, ok := o.(*dialog.Kept); ok && k.Task() == n {
			m.over.remove(k)
		}
	}
}

// handleTaskMsg shows a kept task's patch, or what applying it did.
func (m *Model) handleTaskMsg(msg tea.Msg) {
	switch msg := msg.(type) {
	case taskPatchMsg:
		if msg.err != nil {
			m.chat.AddNotice("/tasks patch: " + msg.err.Error())
			return
		}
		d := diffData(msg.ch)
		d.Title = "The patch of " + msg.ch.Text + " (not applied)"
		m.over.push(dialog.NewDiff(m.keys.Diff, d))
	case taskAppliedMsg:
		if msg.err != nil {
			m.chat.AddNotice("/tasks apply: " + msg.err.Error())
			return
		}
		m.applyEvents(msg.evs)
	}
}
