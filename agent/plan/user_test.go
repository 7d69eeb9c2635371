package plan_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/todo"
)

func TestUserRestoreRoundTrip(t *testing.T) {
	b := edited(t,
		plan.Edit{Op: plan.OpAdd, Text: "Docs"},
		plan.Edit{Op: plan.OpCancel, ID: "3", Reason: "later"},
		plan.Edit{Op: plan.OpText, ID: "2", Text: "Write well"},
		plan.Edit{Op: plan.OpStopAfter, ID: "2"},
	)
	b.SetMode(plan.ModePlan)
	if _, _, _, ok := b.Propose(); !ok {
		t.Fatal("no proposal")
	}
	up := b.User()
	if err := up.Validate(); err != nil {
		t.Fatal(err)
	}
	want := todo.UserPlan{Added: []string{"4"}, Cancelled: []string{"3"}, Text: map[string]string{"4": "Docs", "2": "Write well"}}
	if !reflect.DeepEqual(up.Added, want.Added) || !reflect.DeepEqual(up.Cancelled, want.Cancelled) || !reflect.DeepEqual(up.Text, want.Text) || len(up.Pending) != 4 || up.Proposal == nil {
		t.Fatalf("User() = %+v", up)
	}

	r := plan.New() // the resumed session: the list as saved, then its user side
	r.Reset(b.List(), 7)
	r.Restore(up)
	if got := r.User(); !reflect.DeepEqual(got, up) {
		t.Errorf("after Restore User() = %+v, want %+v", got, up)
	}
	if _, rev := r.Snapshot(); rev != 7 {
		t.Errorf("rev %d, want the replay's 7", rev)
	}
	if _, err := r.Replace(three()); err == nil || !strings.Contains(err.Error(), "added by the user") {
		t.Errorf("the restored authority does not bind: %v", err)
	}
	l := r.List()
	l.Items[1].StopAfter = false
	if got, err := r.Replace(l); err != nil || !got.List.Items[1].StopAfter {
		t.Errorf("the gate from the saved list was not kept: %v %+v", err, got.List.Items)
	}
}

func TestRestoreDropsItemsNotInTheList(t *testing.T) {
	b := bookWith(three())
	b.Restore(todo.UserPlan{Added: []string{"3", "9"}, Cancelled: []string{"8"}, Text: map[string]string{"3": "Test", "9": "gone"}})
	up := b.User()
	if !reflect.DeepEqual(up.Added, []string{"3"}) || len(up.Cancelled) != 0 || !reflect.DeepEqual(up.Text, map[string]string{"3": "Test"}) {
		t.Errorf("User() = %+v, want only #3's authority", up)
	}
}

func TestRewindPrunes(t *testing.T) {
	tests := []struct {
		name  string
		back  *todo.List
		added []string // the user's items after
	}{
		{"the files only", nil, []string{"4"}},
		{"to before the add", ptr(three()), nil},
		{"to a list whose #4 is another", ptr(with(func(l *todo.List) {
			l.Items = append(l.Items, todo.Item{ID: "4", Text: "Other", Status: todo.Pending})
		})), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := edited(t, plan.Edit{Op: plan.OpAdd, Text: "Docs"})
			_, rev := b.Snapshot()
			list, r := b.Rewind(tt.back, "rewound")
			if r != rev+1 {
				t.Errorf("rev %d, want %d", r, rev+1)
			}
			if tt.back != nil && ids(list) != ids(*tt.back) {
				t.Errorf("list %s, want %s", ids(list), ids(*tt.back))
			}
			if got := b.User().Added; !reflect.DeepEqual(got, tt.added) {
				t.Errorf("added %v, want %v", got, tt.added)
			}
			if _, undone, _ := b.TakeNotes(); len(undone) != 1 || undone[0] != "rewound" {
				t.Errorf("notes %q", undone)
			}
		})
	}
}

func ptr(l todo.List) *todo.List { return &l }

func TestUndo(t *testing.T) {
	b := edited(t, plan.Edit{Op: plan.OpCancel, ID: "3", Reason: "later"})
	list, rev := b.Undo([]string{"2", "3", "9"}, "undid #2")
	if ids(list) != "1:completed 2:pending 3:pending" || rev != 2 {
		t.Errorf("after Undo %s rev %d", ids(list), rev)
	}
	if list.Items[1].Note != "undone by the user" {
		t.Errorf("note %q", list.Items[1].Note)
	}
	if got := b.CancelledIDs(); len(got) != 0 {
		t.Errorf("the user's cancel of an undone item stays: %v", got)
	}
}
