package dialog

import (
	"testing"
	"time"

	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/style"
)

var _ ContextAsker = (*Proposal)(nil)

// TestProposalAnswers: y and e answer a proposal only while idle, on an
// empty input and deliberately; otherwise they pass on to the input.
func TestProposalAnswers(t *testing.T) {
	shown := time.Now()
	later := shown.Add(time.Second)
	tests := []struct {
		name    string
		now     time.Time
		running bool
		typed   bool // the input holds text
		key     string
		want    Action
		handled bool
	}{
		{"y approves", later, false, false, "y", ApprovePlan{}, true},
		{"e edits", later, false, false, "e", EditPlan{}, true},
		{"too soon after it appeared", shown.Add(time.Millisecond), false, false, "y", nil, false},
		{"while a turn runs", later, true, false, "y", nil, false},
		{"on a typed revision", later, false, true, "y", nil, false},
		{"another key", later, false, false, "x", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr := NewProposal(style.DefaultProposalKeyMap(), []todo.Change{{ID: "1", Kind: todo.Added}})
			pr.Show(shown)
			c := pickerContext(tt.now, tt.running)
			c.InputEmpty = !tt.typed
			act, handled := pr.Update(c, keyPress(tt.key))
			if act != tt.want || handled != tt.handled {
				t.Fatalf("got %#v %v, want %#v %v", act, handled, tt.want, tt.handled)
			}
			if pr.AsksIn(c) != (!tt.running && !tt.typed) {
				t.Fatalf("AsksNow %v", pr.AsksIn(c))
			}
		})
	}
}
