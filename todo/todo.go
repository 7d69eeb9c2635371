// Package todo is tick's todo list: the plan the model keeps while it works.
//
// A List is always replaced whole (the model sends every item on every
// call). Parse validates an update against the rules in docs/architecture.md and either
// returns the new list or an error naming what is wrong; a rejected update
// never changes the caller's list. Render produces the text the model sees
// as the tool's result. The package imports nothing of the project.
package todo

import (
	"fmt"
	"strings"
)

// Status is the state of one item.
type Status string

// The valid statuses.
const (
	Pending    Status = "pending"
	InProgress Status = "in_progress"
	Completed  Status = "completed"
	Cancelled  Status = "cancelled"
)

// MaxItems is the largest list Parse accepts.
const MaxItems = 20

// Reminder is the user message the agent adds when the model has worked for
// a while without updating its list (see docs/architecture.md, "Nag reminder"). It is
// not a prompt of the user's, and session listings do not count it as one.
const Reminder = "<reminder>Update your todos.</reminder>"

// Item is one step of the plan. ActiveForm is the present-continuous text
// shown while the item runs; Note is the result of a completed item or the
// reason a cancelled one was dropped.
type Item struct {
	ID         string `json:"id"`
	Text       string `json:"text"`
	Status     Status `json:"status"`
	ActiveForm string `json:"active_form,omitempty"`
	Note       string `json:"note,omitempty"`
	// StopAfter marks a gate set by the user: when the item is completed,
	// the turn pauses before the next model call. The model never sets it.
	StopAfter bool `json:"stop_after,omitempty"`
}

// List is the whole plan: an optional one-line goal and its items in order.
// The zero List is empty. Archived marks a plan the user (or a plan with a
// new goal) put aside: it is kept for the record, and is no longer the
// plan; Parse never sets it.
type List struct {
	Goal     string `json:"goal,omitempty"`
	Items    []Item `json:"items"`
	Archived bool   `json:"archived,omitempty"`
}

// Empty reports whether the list has no items.
func (l List) Empty() bool { return len(l.Items) == 0 }

// Counts returns how many items are completed and how many count toward the
// total: cancelled items are outside both.
func (l List) Counts() (done, total int) {
	for _, it := range l.Items {
		switch it.Status {
		case Completed:
			done++
			total++
		case Cancelled:
		default:
			total++
		}
	}
	return done, total
}

// Current returns the item in progress, if any.
func (l List) Current() (Item, bool) {
	for _, it := range l.Items {
		if it.Status == InProgress {
			return it, true
		}
	}
	return Item{}, false
}

// Next returns the item in progress or else the first pending one: what the
// plan will do next. ok is false when nothing is left.
func (l List) Next() (Item, bool) {
	if it, ok := l.Current(); ok {
		return it, true
	}
	for _, it := range l.Items {
		if it.Status == Pending {
			return it, true
		}
	}
	return Item{}, false
}

// Clone returns a deep copy, so that a receiver of the list can keep it
// while the owner replaces its own.
func (l List) Clone() List {
	c := List{Goal: l.Goal, Archived: l.Archived}
	if l.Items != nil {
		c.Items = append([]Item(nil), l.Items...)
	}
	return c
}

// Glyph returns the marker Render uses for a status: [x], [>], [ ] or [-].
func (s Status) Glyph() string {
	switch s {
	case Completed:
		return "[x]"
	case InProgress:
		return "[>]"
	case Cancelled:
		return "[-]"
	default:
		return "[ ]"
	}
}

// Render returns the list as the model sees it after each todo call: the
// goal if there is one, one line per item, a blank line and the count of
// completed items (cancelled ones outside the count). An empty list renders
// as a short sentence saying so.
func (l List) Render() string {
	var b strings.Builder
	if l.Goal != "" {
		fmt.Fprintf(&b, "Goal: %s\n", l.Goal)
	}
	if len(l.Items) == 0 {
		b.WriteString("(the todo list is empty)\n")
		return b.String()
	}
	for _, it := range l.Items {
		fmt.Fprintf(&b, "%s #%s: %s", it.Status.Glyph(), it.ID, it.Text)
		switch {
		case it.Status == Cancelled:
			fmt.Fprintf(&b, " (cancelled: %s)", it.Note)
		case it.Note != "":
			fmt.Fprintf(&b, " -> %s", it.Note)
		}
		b.WriteByte('\n')
	}
	done, total := l.Counts()
	fmt.Fprintf(&b, "\n(%d/%d completed)\n", done, total)
	return b.String()
}
