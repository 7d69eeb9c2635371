package plan

import (
	"fmt"
	"strings"

	"github.com/tick-agent/tick/todo"
)

// A plan is put aside (archived) by the user (Clear, /plan clear) or when
// the model sends a list with a different goal while the plan is still
// open. An archived plan is no longer the plan: its items, the user's
// authority over them and its gates are gone from the Book; the agent
// keeps it in the session as a todo line with "archived": true before the
// list that follows it, and Archived keeps it for the front-end.

// Replaced is what Replace did with the model's list.
type Replaced struct {
	List todo.List // the plan now
	Rev  int       // its revision
	// Before is the list the new one updates, empty when it replaced the
	// plan (an item that goes in progress is compared with it).
	Before todo.List
	// Archived is the plan the list replaced, marked Archived, when
	// Replaced is true.
	Archived todo.List
	Replaced bool
	// Carried names the user's open items of a finished plan carried into
	// the new one; SetAside those of a plan in progress put aside with it.
	Carried, SetAside []string
}

// Replace makes the model's list the plan, unless it undoes the user's
// edits: an item the user added dropped, one the user cancelled re-opened,
// a text the user wrote changed; then it returns an error saying which
// and changes nothing (the user's gates are carried into the list, and
// the notes tasks left on their items, see carryOwned). A list with
// another goal replaces the plan rather than updating it, and the plan is
// archived (see replaces).
func (b *Book) Replace(list todo.List) (Replaced, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	list = list.Clone()
	r := b.replaces(&list)
	if err := b.check(&list); err != nil {
		return Replaced{}, err
	}
	if !r.Replaced {
		r.Before = b.list.Clone()
	}
	b.carryOwned(b.list, &list)
	b.list = list
	r.List, r.Rev = b.bump()
	return r, nil
}

// check refuses a list from the model that undoes the user's edits, and
// carries the user's gates over into it. b.mu is held.
func (b *Book) check(l *todo.List) error {
	for id := range b.added {
		if l.Find(id) < 0 {
			return fmt.Errorf("item #%s was added by the user and may not be dropped: keep it in the list (complete it, or cancel it with a note saying why)", id)
		}
	}
	for i := range l.Items {
		it := &l.Items[i]
		if b.cancelled[it.ID] && it.Status != todo.Cancelled {
			return fmt.Errorf("item #%s was cancelled by the user and may not be re-opened: keep it cancelled", it.ID)
		}
		if want, ok := b.text[it.ID]; ok && it.Text != want {
			return fmt.Errorf("the text of item #%s was written by the user and may not be changed: keep it as %q", it.ID, want)
		}
		it.StopAfter = b.stopAfter[it.ID]
	}
	return nil
}

// replaces decides whether list, from the model, replaces the plan rather
// than updating it, and if so archives the plan. Only a plan in progress
// (an item of the model's still open) holds: it is replaced only by a
// list with another goal (both goals set and different), and the user's
// items go aside with it (SetAside names those still open, for the chat).
// A finished plan (nothing of the model's open) is replaced by any list
// that does not carry all of its items on unchanged, and the user's items
// still open in it are carried into list (under a fresh id when theirs is
// taken) and stay the user's (Carried names them). b.mu is held.
func (b *Book) replaces(list *todo.List) Replaced {
	old := b.list
	if old.Empty() {
		return Replaced{}
	}
	inProgress := false
	var keep []todo.Item
	for _, it := range old.Open() {
		if b.added[it.ID] {
			keep = append(keep, it)
		} else {
			inProgress = true
		}
	}
	if inProgress && sameGoal(old.Goal, list.Goal) {
		return Replaced{}
	}
	if !inProgress && continues(old, *list) {
		return Replaced{}
	}
	r := Replaced{Archived: b.archive(), Replaced: true}
	if inProgress {
		for _, it := range keep {
			r.SetAside = append(r.SetAside, fmt.Sprintf("#%s %q", it.ID, it.Text))
		}
		return r
	}
	r.Carried = b.carry(list, keep)
	return r
}

// continues reports whether next keeps every item of prev with its text:
// the model updating the same plan rather than starting another.
func continues(prev, next todo.List) bool {
	for _, it := range prev.Items {
		i := next.Find(it.ID)
		if i < 0 || next.Items[i].Text != it.Text {
			return false
		}
	}
	return true
}

// carry puts the user's open items of a replaced plan into list, each
// under its own id unless the model used that id for another text, and
// gives the user authority over them again. It returns a note per item
// carried. b.mu is held.
func (b *Book) carry(list *todo.List, items []todo.Item) []string {
	var notes []string
	for _, it := range items {
		if i := list.Find(it.ID); i >= 0 && list.Items[i].Text == it.Text {
			b.added[it.ID], b.text[it.ID] = true, it.Text
			continue // the model carried it itself
		}
		from := it.ID
		if list.Find(it.ID) >= 0 {
			it.ID = nextID(*list)
		}
		it.Status = todo.Pending
		list.Items = append(list.Items, it)
		b.added[it.ID], b.text[it.ID] = true, it.Text
		if from == it.ID {
			notes = append(notes, fmt.Sprintf("#%s %q", it.ID, it.Text))
		} else {
			notes = append(notes, fmt.Sprintf("#%s %q (was #%s)", it.ID, it.Text, from))
		}
	}
	return notes
}

// Clear puts the plan aside at the user's asking: the list becomes empty
// and a note tells the model before its next call that the plan is no
// longer the plan. It returns the archived plan and the revision of the
// empty list, or ErrNoPlan when the list is empty.
func (b *Book) Clear() (archived todo.List, rev int, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.list.Empty() {
		return todo.List{}, 0, ErrNoPlan
	}
	archived = b.archive()
	b.list = todo.List{}
	b.undone = append(b.undone, "The user put the plan aside (archived): "+Name(archived)+" is no longer the plan. Do not carry it on unless the user asks; start a new list with todo when new work needs one.")
	_, rev = b.bump()
	return archived, rev, nil
}

// archive keeps the current list aside, marked archived, and drops the
// user's side of it (authority, gates, proposal); it returns the archived
// copy. b.mu is held.
func (b *Book) archive() todo.List {
	archived := b.list.Clone()
	archived.Archived = true
	b.archived = append(b.archived, archived)
	if n := len(b.archived); n > maxArchived {
		b.archived = append([]todo.List(nil), b.archived[n-maxArchived:]...)
	}
	b.forget()
	b.proposal = nil
	return archived.Clone()
}

// Archived returns copies of the plans put aside, oldest first, each
// marked Archived (at most the last 10).
func (b *Book) Archived() []todo.List {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]todo.List, len(b.archived))
	for i, l := range b.archived {
		out[i] = l.Clone()
	}
	return out
}

// sameGoal reports whether two goals are the same (case and white space
// aside), or either is unset.
func sameGoal(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(oneLine(s)) }
	a, b = norm(a), norm(b)
	return a == "" || b == "" || a == b
}

// Name names a plan by its goal, or its item count.
func Name(l todo.List) string {
	if l.Goal != "" {
		return fmt.Sprintf("the plan %q", l.Goal)
	}
	return fmt.Sprintf("the plan of %d items", len(l.Items))
}
