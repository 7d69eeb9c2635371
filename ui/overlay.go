package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"slices"
	"time"

	tea "charm.land/bubbletea/v2"
)

// overlay is one thing that sits on top of the screen and gets the keys
// first while it is open: the approval dialog, the undo confirmation,
// /rewind, the plan editor and its item diff, the /sessions and /model
// pickers, the help overlay and a proposed plan waiting for its answer.
// The root only keeps them on one stack (overlays) and asks the top one
// first. Layer orders the stack: an overlay sits above every overlay of a
// lower layer, whenever it opened (a question the turn waits on always
// stays above a picker), and above those of its own layer that opened
// before it (the layers are package dialog's).
//
// An overlay is a dialog.Dialog (package ui/dialog): it reads a
// dialog.Context and returns a dialog.Action the root carries out
// (carryOut); no overlay sees the Model. Its lines are drawn over the
// bottom of the area above the input, and the input's popups (@, /) and
// its cursor are hidden; nil draws nothing (the plan editor and a
// proposal draw in the panel).
type overlay = dialog.Dialog

// overlays is the stack of open overlays, the top last.
type overlays []overlay

// push opens o above every overlay of its layer or a lower one.
func (s *overlays) push(o overlay) {
	i := len(*s)
	for i > 0 && (*s)[i-1].Layer() > o.Layer() {
		i--
	}
	*s = slices.Insert(*s, i, o)
}

// remove closes o; it does nothing when o is not open.
func (s *overlays) remove(o overlay) {
	if i := slices.Index(*s, o); i >= 0 {
		*s = slices.Delete(*s, i, i+1) // clears the freed slot
	}
}

// top returns the overlay on top, or nil.
func (s overlays) top() overlay {
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// overlayOf returns the open overlay of type T, or T's zero value.
func overlayOf[T overlay](m *Model) T {
	for _, o := range m.over {
		if t, ok := o.(T); ok {
			return t
		}
	}
	var zero T
	return zero
}

// routeOverlay gives msg to the top overlay; handled false means no
// overlay took it.
func (m *Model) routeOverlay(msg tea.Msg, lastKey time.Time) (tea.Cmd, bool) {
	o := m.over.top()
	if o == nil {
		return nil, false
	}
	act, handled := o.Update(m.dialogContext(lastKey), msg)
	return m.carryOut(o, act), handled
}

// overlayBoxes returns the boxes of the open overlays, lowest first, for
// the area above the input (w cells, h lines), each cut to h lines. The
// overlays that draw in the panel give none.
func (m *Model) overlayBoxes(w, h int) [][]string {
	var boxes [][]string
	for _, o := range m.over {
		if box := o.View(m.dialogContext(time.Time{}), w, h); box != nil {
			boxes = append(boxes, box[:min(len(box), h)])
		}
	}
	return boxes
}

// dialogContext is what a dialog may read of the model.
func (m *Model) dialogContext(lastKey time.Time) dialog.Context {
	cmds := m.commandsFrom("") // all of them, whatever the / popup shows
	list := make([]dialog.Command, len(cmds))
	for i, c := range cmds {
		list[i] = dialog.Command{Name: c.Name, Desc: c.Desc}
	}
	w, h := m.overlayArea()
	return dialog.Context{St: m.st, Keys: m.keys, Now: m.now, LastKey: lastKey, Commands: list, ConfigPath: m.cfg.ConfigPath,
		Running: m.turn != nil, ModelName: m.cfg.Model, InputEmpty: m.input.Empty(), Tasks: dialogTasks(m.panel),
		Plan: m.panel.List(), PlanSel: m.panel.Sel(), Width: w, Height: h}
}

// overlayArea is the area above the input that the frame draws the
// overlays in, as of the last layout: the chat, the steering strip and
// the panel above the input.
func (m *Model) overlayArea() (w, h int) {
	g := m.geo
	return m.width, g.chatH + g.pendingH + g.panelH
}

// carryOut does what dialog d asked for.
func (m *Model) carryOut(d dialog.Dialog, act dialog.Action) tea.Cmd {
	switch act := act.(type) {
	case dialog.Seq:
		var cmds []tea.Cmd
		for _, a := range act {
			cmds = append(cmds, m.carryOut(d, a))
		}
		return tea.Batch(cmds...)
	case dialog.Close:
		m.over.remove(d)
	case dialog.Notice:
		m.chat.AddNotice(act.Text)
	case dialog.Apply:
		m.applyEvents(act.Events)
	case dialog.Send:
		return m.startTurn(act.Prompt)
	case dialog.Run:
		return act.Cmd
	case dialog.Quit:
		return m.quit()
	case dialog.ResumeSession:
		return m.resumeSession(act.ID, false)
	case dialog.ForkSession:
		return m.resumeSession(act.ID, true)
	case dialog.SwitchModel:
		return m.switchModel(act.Name)
	case dialog.SaveDefaultModel:
		return m.saveDefaultModel(act.Name)
	case dialog.ApprovePlan:
		return m.approvePlan(m.cfg.Agent)
	case dialog.EditPlan:
		m.openEditor()
	case dialog.Open:
		m.over.push(act.Dialog)
	case dialog.SelectTask:
		m.panel.SelectTask(act.ID)
	case dialog.RewindTo:
		return m.rewindTo(act)
	case dialog.SelectPlanItem:
		m.panel.Select(act.Sel)
	case dialog.EditPlanItem:
		m.applyPlanEdit(act.Edit)
	case dialog.CloseEditor:
		m.closeEditor()
	case dialog.ShowItemChanges:
		return m.openItemDiff(act.ID)
	case dialog.StopTask:
		if m.cfg.Agent.StopTask(act.ID) {
			m.chat.AddNotice("stopping the task " + act.Desc)
		}
	default:
		return m.carryOutAside(act)
	}
	return nil
}

// openHelp shows the help overlay from its top.
func (m *Model) openHelp() {
	m.closeHelp()
	m.over.push(dialog.NewHelp(m.keys.HelpScreen))
}

// closeHelp closes the help overlay, if open.
func (m *Model) closeHelp() { m.over.remove(overlayOf[*dialog.Help](m)) }
