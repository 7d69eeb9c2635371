package plan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tick-agent/tick/todo"
)

// Op is one kind of edit the user makes to the plan.
type Op string

// The edits of Book.Edit.
const (
	OpAdd       Op = "add"        // add Text as a pending item after ID ("" = at the end)
	OpText      Op = "edit"       // change ID's text to Text
	OpCancel    Op = "cancel"     // cancel ID with Reason
	OpDrop      Op = "drop"       // delete ID, which must be pending
	OpMove      Op = "move"       // move ID to position To (1-based)
	OpStopAfter Op = "stop_after" // toggle the gate after ID
)

// Edit is one edit of the plan by the user.
type Edit struct {
	Op     Op
	ID     string
	Text   string
	Reason string
	To     int
}

// Edit applies the user's edit to the list and returns the new list and
// its revision. The user gains authority over what the edit touches (see
// Check), and a note saying what changed waits for the model (TakeNotes).
// A bad edit (unknown item, empty text, a full list) changes nothing and
// returns an error saying why.
func (b *Book) Edit(e Edit) (todo.List, int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	list, note, err := b.apply(b.list.Clone(), e)
	if err != nil {
		return todo.List{}, 0, fmt.Errorf("edit the plan (%s #%s): %w", e.Op, e.ID, err)
	}
	b.list = list
	b.edits = append(b.edits, note)
	l, rev := b.bump()
	return l, rev, nil
}

// apply returns l with e applied and a note saying what changed. It
// records the user's authority over the items it touches. b.mu is held.
func (b *Book) apply(l todo.List, e Edit) (todo.List, string, error) {
	i := l.Find(ItemID(e.ID))
	text := oneLine(e.Text)
	if (e.Op != OpAdd || e.ID != "") && i < 0 {
		return l, "", fmt.Errorf("no item #%s in the plan", e.ID)
	}
	switch e.Op {
	case OpAdd:
		return b.add(l, i, text)
	case OpText:
		if text == "" {
			return l, "", errors.New("the text may not be empty")
		}
		old := l.Items[i].Text
		l.Items[i].Text, l.Items[i].ActiveForm = text, ""
		b.text[l.Items[i].ID] = text
		return l, fmt.Sprintf("reworded #%s to %q (was %q)", l.Items[i].ID, text, old), nil
	case OpCancel:
		return b.cancel(l, i, oneLine(e.Reason))
	case OpDrop:
		it := l.Items[i]
		if it.Status != todo.Pending {
			return l, "", fmt.Errorf("item #%s is %s: only pending items can be deleted (cancel it instead)", it.ID, it.Status)
		}
		l.Items = append(l.Items[:i], l.Items[i+1:]...)
		delete(b.added, it.ID)
		delete(b.text, it.ID)
		delete(b.stopAfter, it.ID)
		return l, fmt.Sprintf("removed #%s %s", it.ID, it.Text), nil
	case OpMove:
		to := min(max(e.To, 1), len(l.Items)) - 1
		it := l.Items[i]
		l.Items = append(l.Items[:i], l.Items[i+1:]...)
		l.Items = append(l.Items[:to], append([]todo.Item{it}, l.Items[to:]...)...)
		return l, fmt.Sprintf("moved #%s to position %d", it.ID, to+1), nil
	case OpStopAfter:
		it := &l.Items[i]
		it.StopAfter = !it.StopAfter
		b.stopAfter[it.ID] = it.StopAfter
		if it.StopAfter {
			return l, fmt.Sprintf("marked #%s \"stop after\": the user reviews the work when it is completed", it.ID), nil
		}
		return l, fmt.Sprintf("removed the stop after #%s", it.ID), nil
	}
	return l, "", fmt.Errorf("unknown plan edit %q", e.Op)
}

// add puts a pending item with text after index i (-1: at the end).
// b.mu is held.
func (b *Book) add(l todo.List, i int, text string) (todo.List, string, error) {
	if text == "" {
		return l, "", errors.New("the new item needs a text")
	}
	if len(l.Items) >= todo.MaxItems {
		return l, "", fmt.Errorf("the plan already has %d items, the most it may have", todo.MaxItems)
	}
	it := todo.Item{ID: nextID(l), Text: text, Status: todo.Pending}
	at := len(l.Items)
	if i >= 0 {
		at = i + 1
	}
	l.Items = append(l.Items[:at], append([]todo.Item{it}, l.Items[at:]...)...)
	b.added[it.ID], b.text[it.ID] = true, it.Text
	return l, fmt.Sprintf("added #%s %s", it.ID, it.Text), nil
}

// cancel cancels the item at index i with reason. b.mu is held.
func (b *Book) cancel(l todo.List, i int, reason string) (todo.List, string, error) {
	if reason == "" {
		return l, "", errors.New("say why the item is cancelled")
	}
	it := &l.Items[i]
	if it.Status == todo.Completed || it.Status == todo.Cancelled {
		return l, "", fmt.Errorf("item #%s is already %s", it.ID, it.Status)
	}
	it.Status, it.Note = todo.Cancelled, reason
	b.cancelled[it.ID] = true
	return l, fmt.Sprintf("cancelled #%s: %s", it.ID, reason), nil
}

// oneLine folds s's runs of white space into single spaces, trimmed.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ItemID is the item a user or a task names, without white space or a
// leading "#".
func ItemID(s string) string { return strings.TrimPrefix(strings.TrimSpace(s), "#") }

// nextID returns an id for a new item of l: one more than the largest
// numeric id, unused.
func nextID(l todo.List) string {
	n := 0
	for _, it := range l.Items {
		if v, err := strconv.Atoi(it.ID); err == nil && v > n {
			n = v
		}
	}
	for {
		n++
		id := strconv.Itoa(n)
		if l.Find(id) < 0 {
			return id
		}
	}
}
