package plan_test

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/todo"
)

func TestSetModeRemembersWhereApprovalReturns(t *testing.T) {
	tests := []struct {
		steps      []plan.Mode
		mode, back plan.Mode
	}{
		{[]plan.Mode{plan.ModeAsk, plan.ModePlan}, plan.ModePlan, plan.ModeAsk},
		{[]plan.Mode{plan.ModeAsk, plan.ModePlan, plan.ModePlan}, plan.ModePlan, plan.ModeAsk},
		{[]plan.Mode{plan.ModePlan, plan.ModeAuto}, plan.ModeAuto, plan.ModeAuto},
	}
	for _, tt := range tests {
		b := bookWith(three())
		for _, m := range tt.steps {
			b.SetMode(m)
		}
		if m, back := b.Modes(); m != tt.mode || back != tt.back {
			t.Errorf("%v: modes %v %v, want %v %v", tt.steps, m, back, tt.mode, tt.back)
		}
		if _, err := b.Approve(); err != nil {
			t.Fatal(err)
		}
		if m := b.Mode(); m != tt.back && tt.mode == plan.ModePlan {
			t.Errorf("%v: approving returned to %v, want %v", tt.steps, m, tt.back)
		}
	}
}

func TestRestoreMode(t *testing.T) {
	tests := []struct {
		mode, before string
		wantMode     plan.Mode
		wantBefore   plan.Mode
		wantErr      bool
	}{
		{"plan", "ask", plan.ModePlan, plan.ModeAsk, false},
		{"", "", plan.ModeAuto, plan.ModeAuto, false},
		{"ask", "plan", plan.ModeAsk, plan.ModeAuto, false}, // plan mode is never where approval returns
		{"yolo", "ask", plan.ModeAuto, plan.ModeAuto, true},
		{"ask", "bogus", plan.ModeAuto, plan.ModeAuto, true},
	}
	for _, tt := range tests {
		b := plan.New()
		err := b.RestoreMode(tt.mode, tt.before)
		if (err != nil) != tt.wantErr {
			t.Errorf("RestoreMode(%q, %q) = %v", tt.mode, tt.before, err)
		}
		if m, before := b.Modes(); m != tt.wantMode || before != tt.wantBefore {
			t.Errorf("RestoreMode(%q, %q): %v %v, want %v %v", tt.mode, tt.before, m, before, tt.wantMode, tt.wantBefore)
		}
	}
	for _, m := range []plan.Mode{plan.ModeAuto, plan.ModeAsk, plan.ModePlan} {
		if got, err := plan.ParseMode(m.String()); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), got, err)
		}
	}
}

func TestProposeAndPending(t *testing.T) {
	b := plan.New()
	if _, _, _, ok := b.Propose(); ok {
		t.Error("an empty plan was proposed")
	}
	b.SetMode(plan.ModePlan)
	if _, err := b.Replace(three()); err != nil {
		t.Fatal(err)
	}
	_, changes, rev, ok := b.Propose()
	if !ok || changes != nil || rev != 1 {
		t.Fatalf("first proposal: ok %v changes %v rev %d", ok, changes, rev)
	}
	if _, _, ok := b.Pending(); !ok {
		t.Error("the proposal does not wait in plan mode")
	}
	if _, err := b.Replace(with(func(l *todo.List) { l.Items[2].Text = "Test more" })); err != nil {
		t.Fatal(err)
	}
	if _, changes, _, _ := b.Propose(); len(changes) == 0 {
		t.Error("the second proposal marks no change")
	}
	text, err := b.Approve()
	if err != nil || !strings.Contains(text, "#3: Test more") {
		t.Fatalf("Approve = %q, %v", text, err)
	}
	if _, _, ok := b.Pending(); ok || b.User().Proposal != nil || b.Mode() != plan.ModeAuto {
		t.Error("approving left the proposal or plan mode")
	}
}
