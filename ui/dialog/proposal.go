package dialog

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/style"
)

// ApprovePlan asks the root to approve the proposed plan and start the
// turn that carries it out.
type ApprovePlan struct{}

// EditPlan asks the root to open the plan editor.
type EditPlan struct{}

func (ApprovePlan) action() {}
func (EditPlan) action()    {}

// Proposal is a plan proposed by a plan-mode turn, waiting for its
// answer: the root shows it in the panel (the list, what changed against
// the previous proposal, Question) and it asks "Implement this plan?".
// Its keys answer only on an empty input while idle, and only
// deliberately (see AnswerPause): typed on the heels of its appearing or
// of another key they are the start of a revision, and go to the input.
type Proposal struct {
	keys    style.ProposalKeyMap
	changes []todo.Change
	shown   time.Time // when the question last appeared or became answerable
}

// NewProposal returns the question for a proposal that changed changes
// against the previous one; Show makes it answerable.
func NewProposal(keys style.ProposalKeyMap, changes []todo.Change) *Proposal {
	return &Proposal{keys: keys, changes: changes}
}

// Layer puts it under every other dialog.
func (pr *Proposal) Layer() int { return LayerProposal }

// Show records that the question appeared, or became answerable, at now:
// the deliberate pause counts from there.
func (pr *Proposal) Show(now time.Time) { pr.shown = now }

// Changes are the proposal's changes against the previous one.
func (pr *Proposal) Changes() []todo.Change { return pr.changes }

// Question is the panel's footer: the question and its keys, one phrase
// each.
func (pr *Proposal) Question() []string {
	a, e := pr.keys.Approve.Help(), pr.keys.Edit.Help()
	return []string{"Implement this plan?", a.Key + " " + a.Desc, e.Key + " " + e.Desc, "or type to revise"}
}

// AsksIn reports that a single key answers it now: no turn runs and the
// input is empty.
func (pr *Proposal) AsksIn(c Context) bool { return !c.Running && c.InputEmpty }

// Update answers the proposal with y (approve) or e (edit) on an empty
// input while idle, when pressed deliberately; every other key and
// message passes on: the user may type a revision.
func (pr *Proposal) Update(c Context, msg tea.Msg) (Action, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !pr.AsksIn(c) {
		return nil, false
	}
	switch {
	case pr.answers(c, k, pr.keys.Approve):
		return ApprovePlan{}, true
	case pr.answers(c, k, pr.keys.Edit):
		return EditPlan{}, true
	}
	return nil, false
}

// View draws nothing: the root shows the proposal in the panel.
func (pr *Proposal) View(Context, int, int) []string { return nil }

// answers reports whether k answers the proposal with the binding b: it
// matches b and the keyboard rested since the question appeared and since
// the key before.
func (pr *Proposal) answers(c Context, k tea.KeyPressMsg, b key.Binding) bool {
	return key.Matches(k, b) && Deliberate(c.Now, pr.shown, c.LastKey)
}
