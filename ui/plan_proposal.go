package ui

import "github.com/tick-agent/tick/ui/dialog"

// showProposal puts the proposed plan pr (dialog.Proposal, on the overlay
// stack) into the panel at now, which makes it answerable after the
// deliberate pause: the marks of its changes, its removed items and its
// question under the list.
func (m *Model) showProposal(pr *dialog.Proposal) {
	pr.Show(m.now)
	m.panel.ShowProposal(pr.Changes(), pr.Question())
}

// hideProposal takes the proposal out of the panel.
func (m *Model) hideProposal() {
	m.panel.HideProposal()
}
