package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/status"
)

// TestCtrlCGoesBackInTheApp: ctrl+c in a dialog with a back or a close
// does what esc does, step by step, and neither quits tick, nor arms a
// quit, nor interrupts the running turn, nor stops a task. Before, ctrl+c
// did nothing in an item's diff and a task's transcript, interrupted the
// turn (or armed the quit) from the help overlay while leaving it open,
// and interrupted the whole turn from the task rows. Seams: an approval
// over the help (ctrl+c there interrupts the turn, as it always did; the
// next closes the help), parallel tasks (a task's transcript while the
// tasks run), plan edits (an item's diff inside the plan editor).
func TestCtrlCGoesBackInTheApp(t *testing.T) {
	tests := []struct {
		name string
		open func(t *testing.T) (*Model, *stopAgent) // the dialogs open, the top one last
		// steps are what each ctrl+c must leave: the dialog that closed,
		// the one left on top (nil: none).
		steps []func(m *Model) (closed, top bool)
		turn  bool // a turn runs and must not be interrupted
	}{
		{"help, idle", func(t *testing.T) (*Model, *stopAgent) {
			m, a := stopModel(t)
			press(m, "ctrl+g")
			return m, a
		}, []func(*Model) (bool, bool){closedTo[*dialog.Help](nil)}, false},
		{"help while a turn runs", func(t *testing.T) (*Model, *stopAgent) {
			m, a := stopModel(t)
			submit(m, "go")
			press(m, "ctrl+g")
			return m, a
		}, []func(*Model) (bool, bool){closedTo[*dialog.Help](nil)}, true},
		{"an item's diff in the plan editor", func(t *testing.T) (*Model, *stopAgent) {
			ra := &rewindAgent{scriptAgent: &scriptAgent{}, patch: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"}
			m := openPlanOn(t, ra)
			m.after = noTimer
			press(m, "up")
			update(m, press(m, "enter")())
			return m, &stopAgent{scriptAgent: ra.scriptAgent}
		}, []func(*Model) (bool, bool){
			closedTo[*dialog.ItemDiff](func(m *Model) bool { return overlayOf[*dialog.PlanEditor](m) != nil }),
			closedTo[*dialog.PlanEditor](nil),
		}, false},
		{"a task's transcript while the tasks run", func(t *testing.T) (*Model, *stopAgent) {
			m, a := stopModel(t)
			threeTasks(t, m)
			press(m, "ctrl+x")
			press(m, "enter")
			return m, a
		}, []func(*Model) (bool, bool){
			closedTo[*dialog.TaskLog](func(m *Model) bool { return overlayOf[*dialog.TaskFocus](m) != nil }),
			closedTo[*dialog.TaskFocus](nil),
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, a := tt.open(t)
			if len(m.over) == 0 {
				t.Fatalf("no dialog opened:\n%s", screen(m))
			}
			for i, step := range tt.steps {
				if isQuit(press(m, "ctrl+c")) {
					t.Fatalf("ctrl+c %d quit tick", i+1)
				}
				if closed, top := step(m); !closed || !top {
					t.Fatalf("ctrl+c %d: closed its dialog %v, left the right one on top %v (stack %T):\n%s", i+1, closed, top, m.over, screen(m))
				}
				if m.quitArmed || strings.Contains(screen(m), "again to quit") {
					t.Fatalf("ctrl+c %d in a dialog armed a quit:\n%s", i+1, screen(m))
				}
			}
			if len(m.over) != 0 {
				t.Fatalf("dialogs left open: %T", m.over)
			}
			if tt.turn && (m.turn == nil || m.turn.act == status.ActInterrupting) {
				t.Fatal("ctrl+c in a dialog interrupted the turn")
			}
			if len(a.stopped) != 0 {
				t.Fatalf("ctrl+c in a dialog stopped the tasks %v", a.stopped)
			}
		})
	}
}

// TestCtrlCApprovalOverHelp (seam: an open approval dialog over another
// dialog): ctrl+c over the approval interrupts the turn and denies the
// call, as it always did, and leaves the help beneath it open; the next
// ctrl+c closes the help, and tick quits on neither.
func TestCtrlCApprovalOverHelp(t *testing.T) {
	m, _ := stopModel(t)
	submit(m, "go")
	press(m, "ctrl+g")
	reply := make(chan agent.Approval, 1)
	events(t, m, agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "make", Detail: "make", Reply: reply})
	if _, ok := m.over.top().(*dialog.Approvals); !ok || overlayOf[*dialog.Help](m) == nil {
		t.Fatalf("want the approval over the help, stack %T", m.over)
	}
	if isQuit(press(m, "ctrl+c")) {
		t.Fatal("ctrl+c over the approval quit tick")
	}
	if ans := <-reply; ans.Allow {
		t.Fatal("ctrl+c over the approval allowed the call")
	}
	if m.turn.act != status.ActInterrupting {
		t.Fatal("ctrl+c over the approval did not interrupt the turn")
	}
	if overlayOf[*dialog.Help](m) == nil {
		t.Fatal("ctrl+c over the approval closed the help beneath it too")
	}
	if isQuit(press(m, "ctrl+c")) || overlayOf[*dialog.Help](m) != nil {
		t.Fatalf("the second ctrl+c did not close the help (or quit): stack %T", m.over)
	}
}

// stopModel is a 140×30 model talking to a stopAgent.
func stopModel(t *testing.T) (*Model, *stopAgent) {
	m, base := newTestModel(t, 140, 30)
	a := &stopAgent{scriptAgent: base}
	m.cfg.Agent = a
	return m, a
}

// closedTo returns a step's check: no dialog of type T is open, and then
// (nil: no dialog) is what is left.
func closedTo[T overlay](then func(m *Model) bool) func(m *Model) (bool, bool) {
	return func(m *Model) (bool, bool) {
		var zero T
		closed := any(overlayOf[T](m)) == any(zero)
		if then == nil {
			return closed, len(m.over) == 0
		}
		return closed, then(m)
	}
}
