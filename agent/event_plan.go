package agent

import "github.com/tick-agent/tick/todo"

// Events of the plan: earned completion, plan mode's proposal, the user's
// edits and gates. Delivery rules, besides those of Event:
//   - Unfinished and PlanProposed come only from the parent loop, at most
//     one per turn, right before TurnEnd of a turn that ended with
//     ReasonDone.
//   - Paused comes before the loop waits for Continue (or a steer, or an
//     interrupt); the next event says how it went on.
//   - PlanEditDelivered comes just before the model call that carries the
//     user's plan edits.

// Unfinished says that the model ended its turn while items were still
// open, after being reminded of them once (or with the reminder turned
// off). Items are the open items, in order.
type Unfinished struct {
	Items []todo.Item `json:"items"`
}

// PlanProposed is the plan a plan-mode turn ended with, for the user to
// approve (Agent.ApprovePlan), edit, or revise with another prompt.
// Changes is how it differs from the previous proposal of this
// conversation (nil for the first one). Rev is the list's revision (see
// TodoUpdate).
type PlanProposed struct {
	List    todo.List     `json:"list"`
	Changes []todo.Change `json:"changes,omitempty"`
	Rev     int           `json:"rev"`
}

// Paused says that the turn stopped before its next model call because
// the item After, which the user marked "stop after", was completed. It
// goes on with Agent.Continue or a steer message; an interrupt ends it.
//
// Next is the item that waits ("" when none is left); the TodoUpdate sent
// just before Paused names it in Waiting, and one without Waiting follows
// when the turn goes on. A gate also holds when the model moves on without
// completing After: a change under a later item pauses there.
type Paused struct {
	After string `json:"after"`
	Next  string `json:"next,omitempty"`
	Text  string `json:"text"`
}

// PlanEditDelivered says that the user's plan edits (Agent.EditPlan)
// reached the conversation as a note to the model, just before a model
// call. Text is the note.
type PlanEditDelivered struct {
	Text string `json:"text"`
}

func (Unfinished) Type() string        { return "unfinished" }
func (PlanProposed) Type() string      { return "plan_proposed" }
func (Paused) Type() string            { return "paused" }
func (PlanEditDelivered) Type() string { return "plan_edit_delivered" }
