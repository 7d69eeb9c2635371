package ui

import (
	"strconv"

	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
)

// planUI is the root's state of the plan's screens: a gate the turn is
// paused at and an /undo waiting for the turn's end. The proposal of a
// plan-mode turn, the plan editor and the undo confirmation are overlays
// (plan_proposal.go, plan_editor.go, undo.go).
type planUI struct {
	paused    string  // the item a running turn is paused after
	undoAfter *string // an /undo asked for during the turn, run when it ends
}

// handlePlanEvent applies the plan's events of a turn (see
// agent/event_plan.go). It reports whether ev was one of them.
func (m *Model) handlePlanEvent(ev agent.Event) bool {
	switch ev := ev.(type) {
	case agent.Unfinished:
		ids := make([]string, len(ev.Items))
		for i, it := range ev.Items {
			ids[i] = "#" + it.ID
		}
		noun := " open items ("
		if len(ev.Items) == 1 {
			noun = " open item ("
		}
		m.chat.AddInterrupted("Ended with " + strconv.Itoa(len(ev.Items)) + noun + strings.Join(ids, ", ") + ") · the plan stays open")
		m.panel.Hold()
	case agent.PlanProposed:
		m.panel.SetList(ev.List, m.now)
		m.over.remove(m.proposal())
		pr := dialog.NewProposal(m.keys.Proposal, ev.Changes)
		m.over.push(pr)
		m.showProposal(pr)
	case agent.Paused:
		m.plan.paused = ev.After
		m.chat.AddNotice(ev.Text)
		m.pause(ev.After)
	case agent.PlanEditDelivered:
		m.chat.AddNotice("your plan edits reached the model")
	default:
		return false
	}
	return true
}

// planTurnStart clears what belongs to the previous turn: a proposal (a
// revision or the approved plan's turn follows) and a gate.
func (m *Model) planTurnStart() {
	if pr := m.proposal(); pr != nil {
		m.hideProposal()
		m.over.remove(pr)
	}
	m.plan.paused = ""
}

// proposal returns the proposed plan waiting for its answer, or nil.
func (m *Model) proposal() *dialog.Proposal { return overlayOf[*dialog.Proposal](m) }

// planKey handles the plan's keys before the root's others: ctrl+p opens
// the editor; enter on an empty input continues a paused turn. (A
// proposal's y and e are the proposal overlay's.)
func (m *Model) planKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, m.keys.OpenPlan):
		m.openEditor()
	case m.plan.paused != "" && m.running() && m.input.Empty() && key.Matches(k, m.keys.Send):
		m.plan.paused = ""
		m.unpause()
		m.cfg.Agent.Continue()
	default:
		return nil, false
	}
	return nil, true
}

// noteCarryingOut is the status bar's note while the turn that carries
// out an approved plan runs; it goes when the turn ends.
const noteCarryingOut = "carrying out the plan"

// approvePlan approves the proposal and starts the turn that carries it
// out.
func (m *Model) approvePlan(pa Agent) tea.Cmd {
	prompt, err := pa.ApprovePlan()
	if err != nil {
		m.chat.AddNotice("cannot approve the plan: " + err.Error())
		return nil
	}
	m.planTurnStart()
	m.note = pa.Mode().String() + " mode: " + noteCarryingOut
	return m.startTurn(prompt)
}

// openEditor gives the panel focus for editing the plan.
func (m *Model) openEditor() {
	if m.agentless() {
		m.chat.AddNotice(errNoAgent.Error())
		return
	}
	if m.panel.List().Empty() {
		m.chat.AddNotice("there is no plan yet: ask for one (shift+tab switches to plan mode)")
		return
	}
	ed := dialog.NewPlanEditor(m.st, m.keys.Plan)
	m.over.push(ed)
	m.panel.OpenEditor(func(w int) []string { return ed.Footer(m.st, w) })
	m.input.Blur()
}

// closeEditor closes the editor and gives the focus back to the input.
func (m *Model) closeEditor() {
	m.over.remove(overlayOf[*dialog.PlanEditor](m))
	m.panel.CloseEditor()
	if pr := m.proposal(); pr != nil {
		m.showProposal(pr)
	}
	m.input.Focus()
}

// applyPlanEdit sends an edit to the agent and applies the events it
// caused (the new list); a refused edit is shown in the editor, or in the
// chat when the editor is closed (/plan add ...).
func (m *Model) applyPlanEdit(e agent.PlanEdit) {
	evs, err := m.cfg.Agent.EditPlan(e)
	if err != nil {
		if ed := overlayOf[*dialog.PlanEditor](m); ed != nil {
			ed.Refused(err.Error())
		} else {
			m.chat.AddNotice(err.Error())
		}
		return
	}
	m.applyEvents(evs)
}

// applyTodo shows a todo update unless a newer revision is shown already.
func (m *Model) applyTodo(up agent.TodoUpdate) {
	if m.panel.ApplyUpdate(up.List, up.Rev, up.Waiting, m.clock()) {
		m.chat.Plan(up.List)
	}
}

// errPlanUsage is the usage of /plan.
var errPlanUsage = errors.New("usage: /plan · /plan add TEXT · /plan cancel N REASON · /plan drop N · /plan move N M · /plan clear")

// planCommand runs /plan with its arguments: none opens the editor; the
// slash forms edit at once.
func (m *Model) planCommand(args string) tea.Cmd {
	f := strings.Fields(args)
	if len(f) == 0 {
		m.openEditor()
		return nil
	}
	rest := func(i int) string {
		if len(f) <= i {
			return ""
		}
		return strings.Join(f[i:], " ")
	}
	var e agent.PlanEdit
	switch strings.ToLower(f[0]) {
	case "clear":
		m.clearPlan()
		return nil
	case "add":
		e = agent.PlanEdit{Op: agent.PlanAdd, Text: rest(1)}
	case "cancel":
		if len(f) < 3 {
			m.chat.AddNotice(errPlanUsage.Error())
			return nil
		}
		e = agent.PlanEdit{Op: agent.PlanCancel, ID: f[1], Reason: rest(2)}
	case "drop":
		if len(f) != 2 {
			m.chat.AddNotice(errPlanUsage.Error())
			return nil
		}
		e = agent.PlanEdit{Op: agent.PlanDrop, ID: f[1]}
	case "move":
		to := 0
		if len(f) == 3 {
			to = atoi(f[2])
		}
		if to <= 0 {
			m.chat.AddNotice(errPlanUsage.Error())
			return nil
		}
		e = agent.PlanEdit{Op: agent.PlanMove, ID: f[1], To: to}
	default:
		m.chat.AddNotice(errPlanUsage.Error())
		return nil
	}
	m.applyPlanEdit(e)
	return nil
}

// clearPlan puts the plan aside (/plan clear): the agent keeps it in the
// session, archived, and the panel empties.
func (m *Model) clearPlan() {
	evs, err := m.cfg.Agent.ClearPlan()
	if err != nil {
		m.chat.AddNotice("/plan clear: " + err.Error())
		return
	}
	m.applyEvents(evs)
	m.chat.AddNotice("put the plan aside: it is kept in the session, archived")
}

// atoi parses a small positive number, or returns 0.
func atoi(s string) int {
	n := 0
	for _, r := range strings.TrimPrefix(s, "#") {
		if r < '0' || r > '9' || n > 1000 {
			return 0
		}
		n = n*10 + int(r-'0')
	}
	return n
}
