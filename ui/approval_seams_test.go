package ui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/status"
)

// The seams of the approval dialog (dialog.Approvals) with typing that
// names a command, with the user's plan edits and with parallel tasks.

// TestSeamUndoTypedOverApproval: "/undo" typed on the heels of the
// approval and sent with enter runs no command: the turn is not
// interrupted, the approval is not denied, no undo is asked for, and
// the text waits in the input; after a deliberate answer, enter runs it.
func TestSeamUndoTypedOverApproval(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	reply := askApproval(t, m)
	typeText(m, "/undo")
	runCmds(press(m, "enter"))
	if ans, ok := answered(reply); ok {
		t.Fatalf("/undo typed over the approval answered it: %+v", ans)
	}
	if m.approvalQueue() == nil || m.turn == nil || m.turn.act == status.ActInterrupting || m.plan.undoAfter != nil {
		t.Fatalf("/undo typed over the approval ran (dialog open %v, undo after the turn %v):\n%s", m.approvalQueue() != nil, m.plan.undoAfter != nil, screen(m))
	}
	if v := m.input.Value(); v != "/undo" {
		t.Fatalf("input %q, want the command kept", v)
	}
	if s := screen(m); strings.Contains(s, "/undo: interrupting") || !strings.Contains(s, "Allow bash?") || !strings.Contains(s, "the command waits in the input") {
		t.Fatalf("want the approval still asking, nothing undone, and a note why:\n%s", s)
	}
	pause(m)
	press(m, "y")
	settle(m)
	if ans, ok := answered(reply); !ok || !ans.Allow {
		t.Fatalf("y after the typing: answer %+v (sent %v), want allow", ans, ok)
	}
	runCmds(press(m, "enter"))
	if m.plan.undoAfter == nil || !strings.Contains(screen(m), "/undo: interrupting the turn first") {
		t.Fatalf("enter after the answer did not run /undo:\n%s", screen(m))
	}
}

// TestSeamTaskApprovalsOverPlanEdit: the user gated items 2 and 1 in the
// plan editor; then two tasks running side by side ask at once, and their
// approvals queue above the editor, the first shown naming its task and
// item. While they wait, "/plan add Write docs" typed over them waits in the
// input, and a plan update older than the user's edit arrives: neither
// touches the plan. y answers only the first; the second then shows its
// own task, and a key at once goes to the input, not to it; esc denies
// it. The editor below has the keys again, the user's gates kept.
func TestSeamTaskApprovalsOverPlanEdit(t *testing.T) {
	list := plan("G", "> Build", "> Test")
	m, a := newPlanModel(t, list)
	m.panel.SetList(list, m.now)
	submit(m, "go")
	press(m, "ctrl+p")
	press(m, "down")
	press(m, "g") // the user's plan edits: stop after items 2 and 1
	press(m, "up")
	press(m, "g")
	ed := overlayOf[*dialog.PlanEditor](m)
	if ed == nil || !a.real.Todos().Items[1].StopAfter || !a.real.Todos().Items[0].StopAfter {
		t.Fatalf("the user's edit did not land: editor %v, plan %+v", ed != nil, a.real.Todos().Items)
	}
	gated, rev := a.real.Todos(), m.panel.Rev()
	if rev < 2 {
		t.Fatalf("the edit left revision %d: an older one would not be told apart", rev)
	}
	r1, r2 := make(chan agent.Approval, 1), make(chan agent.Approval, 1)
	events(t, m,
		agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "build part", Item: "1"},
		agent.ToolStart{ID: "t2", Name: agent.TaskTool, Summary: "test part", Item: "2"},
		agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "c1", Name: "bash", Summary: "make"}},
		agent.Subagent{ParentID: "t2", Event: agent.ToolStart{ID: "c2", Name: "bash", Summary: "go test ./..."}},
		agent.ApprovalRequest{ID: "c1", Tool: "bash", Summary: "make", Detail: "make", Task: "t1", Reply: r1},
		agent.ApprovalRequest{ID: "c2", Tool: "bash", Summary: "go test ./...", Detail: "go test ./...", Task: "t2", Reply: r2})
	q := m.approvalQueue()
	if q == nil || q.Len() != 2 || m.over.top() != overlay(q) {
		t.Fatalf("want two approvals queued on top of the editor:\n%s", screen(m))
	}
	if s := screen(m); !strings.Contains(s, "from the task build part · item #1 Build") || !strings.Contains(s, "make") {
		t.Fatalf("the first task's approval is not shown:\n%s", s)
	}
	typeText(m, "/plan add Write docs")
	runCmds(press(m, "enter"))
	events(t, m, agent.TodoUpdate{List: list, Rev: rev - 1}) // older than the user's edit
	if got := a.real.Todos(); !reflect.DeepEqual(got, gated) || m.panel.Rev() != rev {
		t.Fatalf("the plan changed under the approvals: %+v (rev %d, want %d)", got.Items, m.panel.Rev(), rev)
	}
	if s := screen(m); !strings.Contains(s, "stop after") {
		t.Fatalf("the panel lost the user's gates:\n%s", s)
	}
	if _, ok := answered(r1); ok || q.Len() != 2 {
		t.Fatalf("the typing answered an approval (%d left)", q.Len())
	}
	m.input.Reset()
	pause(m)
	press(m, "y")
	settle(m)
	if ans, ok := answered(r1); !ok || !ans.Allow {
		t.Fatalf("y: first answer %+v (sent %v), want allow", ans, ok)
	}
	if _, ok := answered(r2); ok || q.Len() != 1 {
		t.Fatalf("y answered the second approval too (%d left)", q.Len())
	}
	if s := screen(m); !strings.Contains(s, "from the task test part · item #2 Test") || !strings.Contains(s, "go test ./...") {
		t.Fatalf("the second task's approval is not shown:\n%s", s)
	}
	press(m, "y") // at once: the second question just appeared
	settle(m)
	if ans, ok := answered(r2); ok {
		t.Fatalf("a key as the second approval appeared answered it: %+v", ans)
	}
	m.input.Reset()
	pause(m)
	press(m, "esc")
	if ans, ok := answered(r2); !ok || ans.Allow {
		t.Fatalf("esc: second answer %+v (sent %v), want a denial", ans, ok)
	}
	if m.approvalQueue() != nil || m.over.top() != overlay(ed) {
		t.Fatalf("after both answers want the editor on top, got %T", m.over.top())
	}
	if got := a.real.Todos(); !reflect.DeepEqual(got, gated) {
		t.Fatalf("the plan after the answers: %+v, want the user's %+v", got.Items, gated.Items)
	}
}
