package plan

import (
	"fmt"
	"strings"

	"github.com/tick-agent/tick/todo"
)

// Started is an item that went in progress, with the list before (what an
// undo point of it keeps) and after, and the new revision.
type Started struct {
	Item         todo.Item
	Before, List todo.List
	Rev          int
}

// StartNext marks the first pending item in progress (a change arrived
// while none was, see the agent's underitem.go) and reports it; ok is
// false, and nothing changes, when no item is pending.
func (b *Book) StartNext() (Started, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, it := range b.list.Items {
		if it.Status == todo.Pending {
			return b.start(i), true
		}
	}
	return Started{}, false
}

// Start puts item id in progress for a task that names it, and makes it
// the tasks' (see Owned). An unknown, completed or cancelled item is an
// error for the model. started is false when the item was in progress
// already.
func (b *Book) Start(id string) (s Started, started bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := b.list.Find(id)
	if i < 0 {
		if b.list.Empty() {
			return Started{}, false, fmt.Errorf("the task names plan item %q but the plan is empty; add the item with todo first, or leave \"item\" out", id)
		}
		ids := make([]string, len(b.list.Items))
		for n, it := range b.list.Items {
			ids[n] = "#" + it.ID
		}
		return Started{}, false, fmt.Errorf("the task names plan item %q but the plan has no such item (it has %s); name one of them, or leave \"item\" out", id, strings.Join(ids, ", "))
	}
	switch it := b.list.Items[i]; it.Status {
	case todo.Completed, todo.Cancelled:
		return Started{}, false, fmt.Errorf("plan item #%s is %s; reopen it with todo first, or leave \"item\" out", id, it.Status)
	case todo.InProgress:
		b.owned[id] = true
		return Started{}, false, nil
	}
	b.owned[id] = true
	return b.start(i), true, nil
}

// start puts the item at index i in progress. b.mu is held.
func (b *Book) start(i int) Started {
	before := b.list.Clone()
	b.list.Items[i].Status = todo.InProgress
	list, rev := b.bump()
	return Started{Item: list.Items[i], Before: before, List: list, Rev: rev}
}

// Owned reports whether item id is a task's: a task named it, and it has
// stayed in progress since. Several owned items may be in progress at once
// besides the model's own one (todo.ParseWith).
func (b *Book) Owned(id string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.owned[id]
}

// WithoutOwned returns list without the items tasks own, so that its
// Current is the item the model works on itself.
func (b *Book) WithoutOwned(list todo.List) todo.List {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := todo.List{Goal: list.Goal}
	for _, it := range list.Items {
		if !b.owned[it.ID] {
			out.Items = append(out.Items, it)
		}
	}
	return out
}

// carryOwned keeps, in the model's new list, the note a task left on an
// item it owns when the model sent that item without a note (the model
// replaces the list whole, and may not copy the note), then drops the
// ownership of the items the list no longer has in progress: an owned
// item the model completed, cancelled or reset is its own again. before
// is the list replaced. b.mu is held.
func (b *Book) carryOwned(before todo.List, list *todo.List) {
	for id := range b.owned {
		i, j := list.Find(id), before.Find(id)
		if i >= 0 && j >= 0 && list.Items[i].Note == "" {
			list.Items[i].Note = before.Items[j].Note
		}
		if i < 0 || list.Items[i].Status != todo.InProgress {
			delete(b.owned, id)
		}
	}
}

// Item returns item id and the list it is in; ok is false when the list
// has no such item.
func (b *Book) Item(id string) (it todo.Item, list todo.List, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := b.list.Find(id)
	if i < 0 {
		return todo.Item{}, todo.List{}, false
	}
	return b.list.Items[i], b.list.Clone(), true
}

// SetNote makes note the note of item id (a task's result), unless the
// item is gone, has that note, or the user cancelled it (the user's
// reason stays). changed is false when nothing changed.
func (b *Book) SetNote(id, note string) (list todo.List, rev int, changed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := b.list.Find(id)
	if i < 0 || b.list.Items[i].Note == note || b.cancelled[id] {
		return todo.List{}, 0, false
	}
	b.list.Items[i].Note = note
	list, rev = b.bump()
	return list, rev, true
}

// UserCancelled reports whether the user cancelled item id (and it is
// still cancelled), with the reason the user gave.
func (b *Book) UserCancelled(id string) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := b.list.Find(id)
	if id == "" || i < 0 || !b.cancelled[id] || b.list.Items[i].Status != todo.Cancelled {
		return "", false
	}
	return b.list.Items[i].Note, true
}

// CancelledIDs returns the ids of the items the user cancelled, sorted.
func (b *Book) CancelledIDs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return sortedTrue(b.cancelled)
}

// GateHit returns the id of a stop-after item that is completed in after
// but was not in before, or "": the gate a todo call just reached.
func GateHit(before, after todo.List) string {
	for _, it := range after.Items {
		if !it.StopAfter || it.Status != todo.Completed {
			continue
		}
		if i := before.Find(it.ID); i < 0 || before.Items[i].Status != todo.Completed {
			return it.ID
		}
	}
	return ""
}

// OpenGateBefore returns the id of an item before id in list that carries
// a gate (StopAfter) and is not completed or cancelled, or "": the gate a
// change under item id walks past.
func OpenGateBefore(list todo.List, id string) string {
	for _, it := range list.Items {
		if it.ID == id {
			return ""
		}
		if it.StopAfter && it.Status != todo.Completed && it.Status != todo.Cancelled {
			return it.ID
		}
	}
	return ""
}

// NextOpenAfter returns the first pending or in-progress item after id in
// list, or "".
func NextOpenAfter(list todo.List, id string) string {
	i := list.Find(id)
	if i < 0 {
		return ""
	}
	for _, it := range list.Items[i+1:] {
		if it.Status == todo.Pending || it.Status == todo.InProgress {
			return it.ID
		}
	}
	return ""
}
