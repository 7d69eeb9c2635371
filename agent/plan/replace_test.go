package plan_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/todo"
)

// edited returns the plan three() after the user's edits.
func edited(t *testing.T, edits ...plan.Edit) *plan.Book {
	t.Helper()
	b := bookWith(three())
	for _, e := range edits {
		if _, _, err := b.Edit(e); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// with returns three() changed by f.
func with(f func(l *todo.List)) todo.List {
	l := three()
	f(&l)
	return l
}

func TestReplaceKeepsTheUsersEdits(t *testing.T) {
	add := plan.Edit{Op: plan.OpAdd, Text: "Docs"}
	tests := []struct {
		name    string
		edits   []plan.Edit
		model   todo.List
		wantErr string
	}{
		{"drops the user's item", []plan.Edit{add}, three(), "#4 was added by the user and may not be dropped"},
		{"keeps the user's item", []plan.Edit{add}, with(func(l *todo.List) {
			l.Items = append(l.Items, todo.Item{ID: "4", Text: "Docs", Status: todo.InProgress})
		}), ""},
		{"re-opens a cancelled item", []plan.Edit{{Op: plan.OpCancel, ID: "3", Reason: "later"}}, three(), "#3 was cancelled by the user"},
		{"rewords the user's text", []plan.Edit{{Op: plan.OpText, ID: "3", Text: "Test all"}}, three(), `keep it as "Test all"`},
		{"keeps the user's text", []plan.Edit{{Op: plan.OpText, ID: "3", Text: "Test all"}}, with(func(l *todo.List) { l.Items[2].Text = "Test all" }), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := edited(t, tt.edits...)
			before, rev := b.Snapshot()
			r, err := b.Replace(tt.model)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if after, r := b.Snapshot(); ids(after) != ids(before) || r != rev {
					t.Errorf("a refused list changed the plan: %s rev %d", ids(after), r)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Replaced || r.Rev != rev+1 || ids(r.Before) != ids(before) || ids(b.List()) != ids(tt.model) {
				t.Errorf("got %+v, want the model's list at rev %d after %s", r, rev+1, ids(before))
			}
		})
	}
}

func TestReplaceCarriesTheGates(t *testing.T) {
	b := edited(t, plan.Edit{Op: plan.OpStopAfter, ID: "2"})
	r, err := b.Replace(three()) // the model never sends StopAfter
	if err != nil {
		t.Fatal(err)
	}
	if !r.List.Items[1].StopAfter || r.List.Items[0].StopAfter {
		t.Errorf("gates after the model's list: %+v, want #2's kept", r.List.Items)
	}
}

func TestReplaceArchives(t *testing.T) {
	finished := with(func(l *todo.List) {
		for i := range l.Items {
			l.Items[i].Status = todo.Completed
		}
	})
	tests := []struct {
		name     string
		plan     todo.List
		model    todo.List
		replaced bool
		carried  string // Carried joined
		aside    string // SetAside joined
		want     string // ids of the plan after
	}{
		{"same goal in progress", three(), with(func(l *todo.List) {
			l.Items[1].Status = todo.Completed
			l.Items = append(l.Items, todo.Item{ID: "4", Text: "Docs", Status: todo.Pending})
		}), false, "", "", "1:completed 2:completed 3:pending 4:pending"},
		{"no goal in progress", three(), todo.List{Items: []todo.Item{{ID: "1", Text: "Other", Status: todo.Pending}, {ID: "4", Text: "Docs", Status: todo.Pending}}}, false, "", "", "1:pending 4:pending"},
		{"new goal in progress", three(), todo.List{Goal: "other", Items: []todo.Item{{ID: "1", Text: "Other", Status: todo.Pending}}}, true, "", `#4 "Docs"`, "1:pending"},
		{"finished plan, new list", finished, todo.List{Items: []todo.Item{{ID: "4", Text: "Other", Status: todo.Pending}}}, true, `#5 "Docs" (was #4)`, "", "4:pending 5:pending"},
		{"finished plan carried on", finished, with(func(l *todo.List) {
			for i := range l.Items {
				l.Items[i].Status = todo.Completed
			}
			l.Items = append(l.Items, todo.Item{ID: "4", Text: "Docs", Status: todo.InProgress})
		}), false, "", "", "1:completed 2:completed 3:completed 4:in_progress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bookWith(tt.plan)
			if _, _, err := b.Edit(plan.Edit{Op: plan.OpAdd, Text: "Docs"}); err != nil {
				t.Fatal(err)
			}
			r, err := b.Replace(tt.model)
			if err != nil {
				t.Fatal(err)
			}
			if r.Replaced != tt.replaced || strings.Join(r.Carried, ",") != tt.carried || strings.Join(r.SetAside, ",") != tt.aside {
				t.Fatalf("replaced %v carried %q aside %q, want %v %q %q", r.Replaced, r.Carried, r.SetAside, tt.replaced, tt.carried, tt.aside)
			}
			if got := ids(b.List()); got != tt.want {
				t.Errorf("plan %s, want %s", got, tt.want)
			}
			if !tt.replaced {
				return
			}
			if !r.Archived.Archived || len(r.Archived.Items) != 4 || !r.Before.Empty() {
				t.Errorf("archived %+v before %+v, want the old plan marked archived and nothing before", r.Archived, r.Before)
			}
			if a := b.Archived(); len(a) != 1 || !a[0].Archived {
				t.Errorf("Archived() = %+v", a)
			}
			if tt.carried != "" { // a carried item stays the user's
				list := b.List()
				list.Items = list.Items[:1]
				if _, err := b.Replace(list); err == nil {
					t.Error("the model dropped a carried user item")
				}
			}
		})
	}
}

func TestClear(t *testing.T) {
	b := edited(t, plan.Edit{Op: plan.OpCancel, ID: "3", Reason: "later"})
	archived, rev, err := b.Clear()
	if err != nil {
		t.Fatal(err)
	}
	if !archived.Archived || archived.Goal != "ship" || rev != 2 || !b.List().Empty() {
		t.Errorf("archived %+v rev %d, want the plan marked archived at rev 2 and an empty list", archived, rev)
	}
	if _, undone, _ := b.TakeNotes(); len(undone) != 1 || !strings.Contains(undone[0], `the plan "ship" is no longer the plan`) {
		t.Errorf("notes %q", undone)
	}
	if _, err := b.Replace(three()); err != nil { // the cancel went with the plan
		t.Errorf("the archived plan's authority still binds: %v", err)
	}
	if up := b.User(); len(up.Cancelled) != 0 {
		t.Errorf("User after Clear: %+v", up)
	}
	if _, _, err := bookWith(todo.List{}).Clear(); !errors.Is(err, plan.ErrNoPlan) {
		t.Errorf("Clear of nothing: %v", err)
	}
}

func TestArchivedIsCapped(t *testing.T) {
	b := plan.New()
	for i := range 12 {
		if _, err := b.Replace(todo.List{Goal: fmt.Sprint(i), Items: []todo.Item{{ID: "1", Text: "x", Status: todo.Pending}}}); err != nil {
			t.Fatal(err)
		}
	}
	a := b.Archived()
	if len(a) != 10 || a[0].Goal != "1" || a[9].Goal != "10" {
		var goals []string
		for _, l := range a {
			goals = append(goals, l.Goal)
		}
		t.Errorf("archived goals %v, want the last ten, 1 to 10", goals)
	}
	b.Reset(three(), 5) // a resumed conversation starts without them
	if a := b.Archived(); len(a) != 0 {
		t.Errorf("Reset kept %d archived plans", len(a))
	}
}
