package plan

import (
	"maps"
	"slices"

	"github.com/tick-agent/tick/todo"
)

// What of the plan survives a resumed session (see also docs/architecture.md,
// "Sessions"):
//
//   - The user's authority (items added, cancelled, worded) is saved with
//     every change (User, the agent's PlanRecorder) and restored (Restore):
//     a todo call that undoes a user's edit is refused after a resume as
//     before it.
//   - The gates (stop_after) are in the saved list itself.
//   - The notes of edits and undos not yet told to the model are saved, and
//     saved again once delivered, so the model hears of them after a resume
//     exactly once (a crash between the two tells it twice, never zero
//     times).
//   - The proposal awaiting approval is saved, so that the next proposal
//     marks its changes; a resumed plan-mode session can approve the plan.
//   - The mode and the mode plan mode returns to are saved (the agent's
//     ModeRecorder, Modes) and restored (RestoreMode), so that a session
//     left in plan mode does not come back able to change files.
//   - The undo checkpoints are not saved: they describe the workspace as
//     this process left it, and the workspace may have changed since (the
//     user, another tick). Restoring a snapshot taken before the session was
//     left could throw away that later work without the user seeing it in
//     the list of changes of this run; undo starts afresh with the next item.
//   - The revision goes on where the replay of the history ends (Reset).

// User returns the savable part of the user's side of the plan.
func (b *Book) User() todo.UserPlan {
	b.mu.Lock()
	defer b.mu.Unlock()
	up := todo.UserPlan{
		Added:     sortedTrue(b.added),
		Cancelled: sortedTrue(b.cancelled),
		Pending:   slices.Clone(b.edits),
		Undone:    slices.Clone(b.undone),
	}
	if len(b.text) > 0 {
		up.Text = maps.Clone(b.text)
	}
	if b.proposal != nil {
		c := b.proposal.Clone()
		up.Proposal = &c
	}
	return up
}

// sortedTrue returns the keys of m whose value is true, sorted.
func sortedTrue(m map[string]bool) []string {
	var out []string
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Restore gives a resumed plan back the user's side of it, after Reset:
// the user's authority over the items still in the list (entries for
// items no longer in it are dropped, so that a list and a state saved a
// moment apart never lock the model out), the notes not yet told to the
// model and the proposal awaiting approval. The gates come from the list.
func (b *Book) Restore(up todo.UserPlan) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range up.Added {
		b.added[id] = true
	}
	for _, id := range up.Cancelled {
		b.cancelled[id] = true
	}
	maps.Copy(b.text, up.Text)
	b.dropGone()
	for _, it := range b.list.Items {
		if it.StopAfter {
			b.stopAfter[it.ID] = true
		}
	}
	b.edits = append(b.edits, up.Pending...)
	b.undone = append(b.undone, up.Undone...)
	if up.Proposal != nil {
		c := up.Proposal.Clone()
		b.proposal = &c
	}
}

// TakeNotes returns the notes of the user's edits and of restores (undo,
// rewind, clear, an applied task) not yet told to the model, and forgets
// them, with the list they lead to.
func (b *Book) TakeNotes() (edits, undone []string, list todo.List) {
	b.mu.Lock()
	defer b.mu.Unlock()
	edits, undone = b.edits, b.undone
	b.edits, b.undone = nil, nil
	return edits, undone, b.list.Clone()
}

// Note adds a restore note for the model (TakeNotes's undone).
func (b *Book) Note(note string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.undone = append(b.undone, note)
}

// Undo puts the items ids back to pending, noted "undone by the user",
// after an undo restored their files; the user's cancel of one of them
// gives way (the user undid it). note waits for the model. It returns the
// new list and its revision.
func (b *Book) Undo(ids []string, note string) (todo.List, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range ids {
		if j := b.list.Find(id); j >= 0 {
			b.list.Items[j].Status, b.list.Items[j].Note = todo.Pending, "undone by the user"
		}
		delete(b.cancelled, id)
	}
	b.undone = append(b.undone, note)
	return b.bump()
}

// Rewind takes the plan back to list after a rewind of the conversation
// (nil: the list stays, the files alone went back), dropping the user's
// authority over what the list no longer holds as the user gave it (see
// prune); note waits for the model. It returns the list and its revision.
func (b *Book) Rewind(list *todo.List, note string) (todo.List, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if list != nil {
		b.list = list.Clone()
		b.prune()
	}
	b.undone = append(b.undone, note)
	return b.bump()
}

// prune drops the user's authority over items that are no longer in the
// list as the user gave it (a rewind took the list back to before an
// edit): an id gone from the list, or whose text is no longer the one the
// user wrote, binds the model no more. b.mu is held.
func (b *Book) prune() {
	for id, want := range b.text {
		if i := b.list.Find(id); i >= 0 && b.list.Items[i].Text != want {
			delete(b.text, id)
			delete(b.added, id)
		}
	}
	b.dropGone()
	if b.proposal != nil && b.list.Empty() {
		b.proposal = nil
	}
}

// dropGone drops the user's authority (added, cancelled, worded, gates)
// over ids no longer in the list, so that it never locks the model out of
// an item that is not there. b.mu is held.
func (b *Book) dropGone() {
	gone := func(id string) bool { return b.list.Find(id) < 0 }
	for _, m := range []map[string]bool{b.added, b.cancelled, b.stopAfter} {
		maps.DeleteFunc(m, func(id string, _ bool) bool { return gone(id) })
	}
	maps.DeleteFunc(b.text, func(id, _ string) bool { return gone(id) })
}
