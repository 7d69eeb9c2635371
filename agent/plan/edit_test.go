package plan_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/todo"
)

// three is a plan of three items: #1 completed, #2 in progress, #3 pending.
func three() todo.List {
	return todo.List{Goal: "ship", Items: []todo.Item{
		{ID: "1", Text: "Read", Status: todo.Completed},
		{ID: "2", Text: "Write", Status: todo.InProgress},
		{ID: "3", Text: "Test", Status: todo.Pending},
	}}
}

// bookWith returns a Book whose plan is l.
func bookWith(l todo.List) *plan.Book {
	b := plan.New()
	b.Reset(l, 0)
	return b
}

// ids returns the ids of l in order, with their statuses.
func ids(l todo.List) string {
	var parts []string
	for _, it := range l.Items {
		parts = append(parts, it.ID+":"+string(it.Status))
	}
	return strings.Join(parts, " ")
}

func TestEdit(t *testing.T) {
	full := todo.List{}
	for range todo.MaxItems {
		full.Items = append(full.Items, todo.Item{ID: fmt.Sprint(len(full.Items) + 1), Text: "x", Status: todo.Pending})
	}
	tests := []struct {
		name    string
		list    todo.List
		edit    plan.Edit
		want    string // ids and statuses after
		note    string // in the note for the model
		wantErr string
	}{
		{"add at the end", three(), plan.Edit{Op: plan.OpAdd, Text: "  Docs \n"}, "1:completed 2:in_progress 3:pending 4:pending", "added #4 Docs", ""},
		{"add after an item", three(), plan.Edit{Op: plan.OpAdd, ID: "#1", Text: "Plan"}, "1:completed 4:pending 2:in_progress 3:pending", "added #4 Plan", ""},
		{"add without text", three(), plan.Edit{Op: plan.OpAdd, Text: " "}, "", "", "needs a text"},
		{"add to a full list", full, plan.Edit{Op: plan.OpAdd, Text: "one more"}, "", "", "already has 20 items"},
		{"add after an unknown item", three(), plan.Edit{Op: plan.OpAdd, ID: "9", Text: "x"}, "", "", "no item #9"},
		{"reword", three(), plan.Edit{Op: plan.OpText, ID: "3", Text: "Test it all"}, "1:completed 2:in_progress 3:pending", `reworded #3 to "Test it all" (was "Test")`, ""},
		{"reword to nothing", three(), plan.Edit{Op: plan.OpText, ID: "3"}, "", "", "may not be empty"},
		{"cancel", three(), plan.Edit{Op: plan.OpCancel, ID: "2", Reason: "not\tneeded"}, "1:completed 2:cancelled 3:pending", "cancelled #2: not needed", ""},
		{"cancel without a reason", three(), plan.Edit{Op: plan.OpCancel, ID: "2"}, "", "", "say why"},
		{"cancel a completed item", three(), plan.Edit{Op: plan.OpCancel, ID: "1", Reason: "r"}, "", "", "already completed"},
		{"drop a pending item", three(), plan.Edit{Op: plan.OpDrop, ID: "3"}, "1:completed 2:in_progress", "removed #3 Test", ""},
		{"drop an item in progress", three(), plan.Edit{Op: plan.OpDrop, ID: "2"}, "", "", "only pending items"},
		{"move to the top", three(), plan.Edit{Op: plan.OpMove, ID: "3", To: 1}, "3:pending 1:completed 2:in_progress", "moved #3 to position 1", ""},
		{"move past the end", three(), plan.Edit{Op: plan.OpMove, ID: "1", To: 99}, "2:in_progress 3:pending 1:completed", "moved #1 to position 3", ""},
		{"gate", three(), plan.Edit{Op: plan.OpStopAfter, ID: "2"}, "1:completed 2:in_progress 3:pending", `marked #2 "stop after"`, ""},
		{"unknown op", three(), plan.Edit{Op: "paint", ID: "2"}, "", "", `unknown plan edit "paint"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bookWith(tt.list)
			list, rev, err := b.Edit(tt.edit)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "edit the plan") {
					t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
				}
				if got, r := b.Snapshot(); ids(got) != ids(tt.list) || r != 0 {
					t.Errorf("a refused edit changed the plan: %s rev %d", ids(got), r)
				}
				if edits, _, _ := b.TakeNotes(); len(edits) != 0 {
					t.Errorf("a refused edit left a note: %q", edits)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ids(list) != tt.want || rev != 1 {
				t.Errorf("got %s rev %d, want %s rev 1", ids(list), rev, tt.want)
			}
			if got := b.List(); ids(got) != tt.want {
				t.Errorf("the Book holds %s, want %s", ids(got), tt.want)
			}
			edits, _, _ := b.TakeNotes()
			if len(edits) != 1 || !strings.Contains(edits[0], tt.note) {
				t.Errorf("notes %q, want one with %q", edits, tt.note)
			}
			if again, _, _ := b.TakeNotes(); len(again) != 0 {
				t.Errorf("notes told twice: %q", again)
			}
		})
	}
}

func TestEditGateToggles(t *testing.T) {
	b := bookWith(three())
	for i, want := range []bool{true, false} {
		list, _, err := b.Edit(plan.Edit{Op: plan.OpStopAfter, ID: "3"})
		if err != nil {
			t.Fatal(err)
		}
		if got := list.Items[2].StopAfter; got != want {
			t.Errorf("toggle %d: StopAfter = %v, want %v", i+1, got, want)
		}
	}
}

func TestErrNoPlan(t *testing.T) {
	b := plan.New()
	if _, _, err := b.Clear(); !errors.Is(err, plan.ErrNoPlan) {
		t.Errorf("Clear of an empty plan: %v, want ErrNoPlan", err)
	}
	if _, err := b.Approve(); !errors.Is(err, plan.ErrNoPlan) {
		t.Errorf("Approve of an empty plan: %v, want ErrNoPlan", err)
	}
}
