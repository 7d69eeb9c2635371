package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

// proposal is a plan proposed by a plan-mode turn: it stays open in the
// panel with what changed against the previous proposal marked, and asks
// "Implement this plan?". Its keys answer only deliberately (see
// dialog.AnswerPause): typed on the heels of its appearing or of another key
// they are the start of a revision.
type proposal struct {
	keys    ProposalKeyMap
	list    todo.List
	changes []todo.Change
	shown   time.Time // when the question last appeared or became answerable
}

func newProposal(ev agent.PlanProposed, keys ProposalKeyMap) *proposal {
	return &proposal{keys: keys, list: ev.List.Clone(), changes: ev.Changes}
}

func (pr *proposal) Layer() int { return dialog.LayerProposal }

// update answers the proposal with y (approve) or e (edit) on an empty
// input while idle, when pressed deliberately (lastKey is the previous
// key's time; see dialog.AnswerPause); every other key and message passes on:
// the user may type a revision.
func (pr *proposal) update(m *Model, msg tea.Msg, lastKey time.Time) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || m.turn != nil || !m.input.empty() {
		return nil, false
	}
	switch {
	case pr.answers(k, pr.keys.Approve, m.now, lastKey):
		return m.approvePlan(m.cfg.Agent), true
	case pr.answers(k, pr.keys.Edit, m.now, lastKey):
		m.openEditor()
		return nil, true
	}
	return nil, false
}

// view draws nothing: the proposal is shown in the panel (show).
func (pr *proposal) view(*Model, int, int) []string { return nil }

// answers reports whether k, pressed at now after a previous key at
// lastKey, answers the proposal with the binding b: it matches b and the
// keyboard rested since the question appeared and since that key.
func (pr *proposal) answers(k tea.KeyPressMsg, b key.Binding, now, lastKey time.Time) bool {
	return key.Matches(k, b) && dialog.Deliberate(now, pr.shown, lastKey)
}

// show puts the proposal into the panel at now: the list, the marks of its
// changes, its removed items and the question.
func (pr *proposal) show(p *panel, now time.Time) {
	pr.shown = now
	p.marks, p.removed = nil, nil
	for _, c := range pr.changes {
		switch c.Kind {
		case todo.Removed:
			p.removed = append(p.removed, c)
		default:
			if p.marks == nil {
				p.marks = map[string]todo.ChangeKind{}
			}
			p.marks[c.ID] = c.Kind
		}
	}
	p.hold, p.expanded = true, true
	p.footer = func(w int) []string {
		a, e := pr.keys.Approve.Help(), pr.keys.Edit.Help()
		return wrapHelp(p.st, []string{"Implement this plan?", a.Key + " " + a.Desc, e.Key + " " + e.Desc, "or type to revise"}, w)
	}
}

// hide takes the proposal out of the panel.
func (pr *proposal) hide(p *panel) {
	p.marks, p.removed, p.footer = nil, nil, nil
}
