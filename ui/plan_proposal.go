package ui

import (
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/style"
)

// showProposal puts the proposed plan pr (dialog.Proposal, on the overlay
// stack) into the panel at now, which makes it answerable after the
// deliberate pause: the marks of its changes, its removed items and its
// question under the list.
func (m *Model) showProposal(pr *dialog.Proposal) {
	pr.Show(m.now)
	p := m.panel
	p.marks, p.removed = nil, nil
	for _, c := range pr.Changes() {
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
	question := pr.Question()
	p.footer = func(w int) []string { return style.WrapHelp(p.st, question, w) }
}

// hideProposal takes the proposal out of the panel.
func (m *Model) hideProposal() {
	m.panel.marks, m.panel.removed, m.panel.footer = nil, nil, nil
}
