package todo

import (
	"errors"
	"fmt"
	"strings"
)

// UserPlan is the user's side of a plan, as a saved session keeps it so
// that a resumed session enforces it again: the items the user added (the
// model may not drop them), cancelled (it may not re-open them) and worded
// (it may not re-word them), the notes of the user's edits and undos the
// model has not been told of yet, and the plan proposed in plan mode that
// awaits the user's approval. The user's gates are not here: they live in
// the list itself (Item.StopAfter). The zero UserPlan says the user has
// done nothing to the plan.
type UserPlan struct {
	Added     []string          `json:"added,omitempty"`
	Cancelled []string          `json:"cancelled,omitempty"`
	Text      map[string]string `json:"text,omitempty"`
	// Pending are the notes of the user's edits not yet told to the model;
	// Undone those of the user's undos.
	Pending []string `json:"pending,omitempty"`
	Undone  []string `json:"undone,omitempty"`
	// Proposal is the last plan proposed in plan mode, nil when none
	// awaits approval.
	Proposal *List `json:"proposal,omitempty"`
}

// maxUserNotes caps each of UserPlan's id lists and note lists: far more
// than a list of MaxItems items ever needs, so that a damaged or hostile
// session file cannot make the agent keep an unbounded amount.
const maxUserNotes = 10 * MaxItems

// Zero reports whether p says nothing.
func (p UserPlan) Zero() bool {
	return len(p.Added) == 0 && len(p.Cancelled) == 0 && len(p.Text) == 0 &&
		len(p.Pending) == 0 && len(p.Undone) == 0 && p.Proposal == nil
}

// Validate checks a UserPlan read back from a file: ids not empty, no list
// longer than 200 entries, texts not empty, and a proposal that is a valid
// list.
func (p UserPlan) Validate() error {
	for _, ids := range [][]string{p.Added, p.Cancelled} {
		if len(ids) > maxUserNotes {
			return fmt.Errorf("%d item ids is too many (at most %d)", len(ids), maxUserNotes)
		}
		for _, id := range ids {
			if strings.TrimSpace(id) == "" {
				return errors.New("an empty item id")
			}
		}
	}
	if len(p.Text) > maxUserNotes {
		return fmt.Errorf("%d texts is too many (at most %d)", len(p.Text), maxUserNotes)
	}
	for id, text := range p.Text {
		if strings.TrimSpace(id) == "" || strings.TrimSpace(text) == "" {
			return fmt.Errorf("an empty id or text (#%s)", id)
		}
	}
	if len(p.Pending) > maxUserNotes || len(p.Undone) > maxUserNotes {
		return fmt.Errorf("too many notes (at most %d)", maxUserNotes)
	}
	if p.Proposal != nil {
		if err := p.Proposal.Validate(); err != nil {
			return fmt.Errorf("the proposal: %w", err)
		}
	}
	return nil
}
