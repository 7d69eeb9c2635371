package plan_test

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/todo"
)

func TestStart(t *testing.T) {
	tests := []struct {
		name    string
		list    todo.List
		id      string
		started bool
		wantErr string
	}{
		{"a pending item", three(), "3", true, ""},
		{"an item in progress", three(), "2", false, ""},
		{"a completed item", three(), "1", false, "plan item #1 is completed"},
		{"an unknown item", three(), "9", false, "it has #1, #2, #3"},
		{"an empty plan", todo.List{}, "1", false, "the plan is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bookWith(tt.list)
			st, started, err := b.Start(tt.id)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || started != tt.started {
				t.Fatalf("started %v err %v, want %v", started, err, tt.started)
			}
			if !started {
				return
			}
			if st.Item.Status != todo.InProgress || st.Before.Items[2].Status != todo.Pending || st.Rev != 1 || ids(st.List) != ids(b.List()) {
				t.Errorf("Started = %+v", st)
			}
		})
	}
}

func TestStartNext(t *testing.T) {
	b := bookWith(with(func(l *todo.List) { l.Items[1].Status = todo.Completed }))
	st, ok := b.StartNext()
	if !ok || st.Item.ID != "3" || st.Before.Items[2].Status != todo.Pending {
		t.Fatalf("StartNext = %+v %v", st, ok)
	}
	if _, ok := b.StartNext(); ok {
		t.Error("started an item with none pending")
	}
}

func TestSetNoteKeepsTheUsersReason(t *testing.T) {
	b := edited(t, plan.Edit{Op: plan.OpCancel, ID: "3", Reason: "not now"})
	if _, _, changed := b.SetNote("3", "the task's result"); changed {
		t.Error("a task's note replaced the user's reason")
	}
	if reason, ok := b.UserCancelled("3"); !ok || reason != "not now" {
		t.Errorf("UserCancelled = %q %v", reason, ok)
	}
	list, rev, changed := b.SetNote("2", "wrote it")
	if !changed || list.Items[1].Note != "wrote it" || rev != 2 {
		t.Errorf("SetNote = %+v %d %v", list.Items[1], rev, changed)
	}
	if _, _, changed := b.SetNote("2", "wrote it"); changed {
		t.Error("the same note counted as a change")
	}
	if _, ok := b.UserCancelled(""); ok {
		t.Error(`UserCancelled("")`)
	}
}

func TestGates(t *testing.T) {
	gated := with(func(l *todo.List) { l.Items[1].StopAfter = true })
	done := with(func(l *todo.List) {
		l.Items[1].StopAfter = true
		l.Items[1].Status = todo.Completed
	})
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"hit when completed now", plan.GateHit(gated, done), "2"},
		{"no hit when completed before", plan.GateHit(done, done), ""},
		{"no hit without a gate", plan.GateHit(three(), with(func(l *todo.List) { l.Items[1].Status = todo.Completed })), ""},
		{"open gate before #3", plan.OpenGateBefore(gated, "3"), "2"},
		{"no open gate before #2 itself", plan.OpenGateBefore(gated, "2"), ""},
		{"a completed gate is passed", plan.OpenGateBefore(done, "3"), ""},
		{"next open after #1", plan.NextOpenAfter(three(), "1"), "2"},
		{"nothing open after #3", plan.NextOpenAfter(three(), "3"), ""},
		{"unknown id", plan.NextOpenAfter(three(), "9"), ""},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestOwnedItems(t *testing.T) {
	b := bookWith(three())
	if _, _, err := b.Start("3"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Start("2"); err != nil { // in progress already: a task's now too
		t.Fatal(err)
	}
	if _, _, err := b.Start("1"); err == nil || b.Owned("1") {
		t.Error("a completed item was given to a task")
	}
	if !b.Owned("2") || !b.Owned("3") {
		t.Fatal("the tasks' items are not owned")
	}
	if got := ids(b.WithoutOwned(b.List())); got != "1:completed" {
		t.Errorf("WithoutOwned = %s", got)
	}
	if _, _, changed := b.SetNote("3", "report 3"); !changed {
		t.Fatal("no note")
	}
	// The model sends #3 without the task's note and completes #2.
	r, err := b.Replace(with(func(l *todo.List) {
		l.Items[1].Status = todo.Completed
		l.Items[2].Status = todo.InProgress
	}))
	if err != nil {
		t.Fatal(err)
	}
	if r.List.Items[2].Note != "report 3" {
		t.Errorf("the task's note on #3 was lost: %q", r.List.Items[2].Note)
	}
	if b.Owned("2") || !b.Owned("3") {
		t.Errorf("owned after the model's list: #2 %v #3 %v, want only #3 (still in progress)", b.Owned("2"), b.Owned("3"))
	}
	b.Reset(three(), 0)
	if b.Owned("3") {
		t.Error("a resumed conversation's items are owned by tasks of another")
	}
}
