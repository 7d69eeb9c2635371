package todo

import (
	"fmt"
	"strings"
)

// ChangeKind says how an item differs between two revisions of a list.
type ChangeKind string

// The kinds of change Diff reports.
const (
	Added    ChangeKind = "added"
	Removed  ChangeKind = "removed"
	Reworded ChangeKind = "reworded"
)

// Change is one difference between two revisions of a list: an item added,
// removed, or whose text changed (Old holds the previous text).
type Change struct {
	Kind ChangeKind `json:"kind"`
	ID   string     `json:"id"`
	Text string     `json:"text"`
	Old  string     `json:"old,omitempty"`
}

// String describes the change in a few words: "added #3 Verify",
// "removed #2 Docs", "reworded #1 Tests (was: Test)".
func (c Change) String() string {
	s := fmt.Sprintf("%s #%s %s", c.Kind, c.ID, c.Text)
	if c.Kind == Reworded {
		s += " (was: " + c.Old + ")"
	}
	return s
}

// Diff returns how next differs from prev, matching items by id: removed
// items in prev's order first, then added and reworded ones in next's
// order. Status changes are not differences.
func Diff(prev, next List) []Change {
	old := make(map[string]Item, len(prev.Items))
	for _, it := range prev.Items {
		old[it.ID] = it
	}
	seen := make(map[string]bool, len(next.Items))
	for _, it := range next.Items {
		seen[it.ID] = true
	}
	var out []Change
	for _, it := range prev.Items {
		if !seen[it.ID] {
			out = append(out, Change{Kind: Removed, ID: it.ID, Text: it.Text})
		}
	}
	for _, it := range next.Items {
		o, ok := old[it.ID]
		switch {
		case !ok:
			out = append(out, Change{Kind: Added, ID: it.ID, Text: it.Text})
		case o.Text != it.Text:
			out = append(out, Change{Kind: Reworded, ID: it.ID, Text: it.Text, Old: o.Text})
		}
	}
	return out
}

// Open returns the items still pending or in progress, in order.
func (l List) Open() []Item {
	var out []Item
	for _, it := range l.Items {
		if it.Status == Pending || it.Status == InProgress {
			out = append(out, it)
		}
	}
	return out
}

// Find returns the index of the item with id, or -1.
func (l List) Find(id string) int {
	for i, it := range l.Items {
		if it.ID == id {
			return i
		}
	}
	return -1
}

// IsReminder reports whether a user message was added by tick for the
// model (a reminder, a note of the user's plan edits) rather than typed as
// a prompt: such messages are wrapped in <reminder> tags.
func IsReminder(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "<reminder>") && strings.HasSuffix(s, "</reminder>")
}

// Markdown renders the list for a person reading Markdown: the goal as a
// heading, then one task-list line per item with its note.
func (l List) Markdown() string {
	var b strings.Builder
	title := l.Goal
	if title == "" {
		title = "Plan"
	}
	fmt.Fprintf(&b, "## %s\n\n", title)
	for _, it := range l.Items {
		box := "[ ]"
		switch it.Status {
		case Completed:
			box = "[x]"
		case Cancelled:
			box = "[-]"
		}
		fmt.Fprintf(&b, "- %s #%s %s", box, it.ID, it.Text)
		if it.Note != "" {
			fmt.Fprintf(&b, " — %s", it.Note)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
