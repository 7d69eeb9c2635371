package dialog

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/style"
)

var _ Dialog = (*PlanEditor)(nil)

// TestPlanEditorActions: what the plan editor asks the root to do for
// each run of keys, with the second of three items selected: move the
// selection, send an edit, close, show an item's changes. Typed text is
// sent only on enter, and a refused edit shows until the next key.
func TestPlanEditorActions(t *testing.T) {
	list := todo.List{Goal: "G", Items: []todo.Item{{ID: "1", Text: "ALPHA"}, {ID: "2", Text: "BRAVO"}, {ID: "3", Text: "CHARLIE"}}}
	tests := []struct {
		name string
		keys []string
		want Action
	}{
		{"down selects the next", []string{"down"}, SelectPlanItem{2}},
		{"J moves the item down", []string{"J"}, Seq{SelectPlanItem{2}, EditPlanItem{agent.PlanEdit{Op: agent.PlanMove, ID: "2", To: 3}}}},
		{"K moves the item up", []string{"K"}, Seq{SelectPlanItem{0}, EditPlanItem{agent.PlanEdit{Op: agent.PlanMove, ID: "2", To: 1}}}},
		{"d drops it", []string{"d"}, EditPlanItem{agent.PlanEdit{Op: agent.PlanDrop, ID: "2"}}},
		{"g marks stop after", []string{"g"}, EditPlanItem{agent.PlanEdit{Op: agent.PlanStopAfter, ID: "2"}}},
		{"enter shows its changes", []string{"enter"}, ShowItemChanges{"2"}},
		{"esc closes", []string{"esc"}, CloseEditor{}},
		{"an add is sent on enter", []string{"a", "Z", "enter"}, EditPlanItem{agent.PlanEdit{Op: agent.PlanAdd, ID: "2", Text: "Z"}}},
		{"a cancel sends its reason", []string{"x", "n", "enter"}, EditPlanItem{agent.PlanEdit{Op: agent.PlanCancel, ID: "2", Reason: "n"}}},
		{"esc while typing sends nothing", []string{"a", "Z", "esc"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := pickerContext(time.Unix(1000, 0), true)
			c.Plan, c.PlanSel = list, 1
			e := NewPlanEditor(c.St, style.DefaultPlanKeyMap())
			var act Action
			for _, k := range tt.keys {
				var handled bool
				if act, handled = e.Update(c, keyPress(k)); !handled {
					t.Fatalf("key %q passed on", k)
				}
			}
			if _, isRun := act.(Run); isRun && tt.want == nil {
				act = nil // the text field's own command (its cursor)
			}
			if !reflect.DeepEqual(act, tt.want) {
				t.Fatalf("got %#v, want %#v", act, tt.want)
			}
		})
	}
	c := pickerContext(time.Unix(1000, 0), true)
	c.Plan, c.PlanSel = list, 1
	e := NewPlanEditor(c.St, style.DefaultPlanKeyMap())
	e.Refused("no item #9")
	if f := strings.Join(e.Footer(c.St, 80), "\n"); !strings.Contains(f, "no item #9") || !strings.Contains(f, "add after") {
		t.Errorf("the footer lacks the refusal or the keys:\n%s", f)
	}
	e.Update(c, keyPress("down"))
	if f := strings.Join(e.Footer(c.St, 80), "\n"); strings.Contains(f, "no item #9") {
		t.Errorf("the refusal outlived the next key:\n%s", f)
	}
}
