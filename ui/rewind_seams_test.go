package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/dialog"
)

// The seams of /rewind (dialog.Rewind) with an open approval dialog and
// with the user's own plan edits.

// TestSeamRewindUnderApproval: /rewind was asked for while idle, a turn
// began before its points came, and an approval opened; the list opens
// below the approval. The approval stays on top and a deliberate y
// answers only it: the list does not move and nothing is rewound. Once
// the question is answered and the turn ended, the list takes the keys.
func TestSeamRewindUnderApproval(t *testing.T) {
	ra := &rewindAgent{scriptAgent: &scriptAgent{}}
	m, _ := rewindModel(t, ra, ra)
	points := m.rewindCommand()
	if points == nil {
		t.Fatal("/rewind while idle asked for no points")
	}
	reply := askApproval(t, m)
	update(m, points())
	r := overlayOf[*dialog.Rewind](m)
	if r == nil || m.over.top() != overlay(m.approvalQueue()) {
		t.Fatalf("want /rewind open below the approval (rewind %v):\n%s", r != nil, screen(m))
	}
	pause(m)
	press(m, "down")
	press(m, "enter")
	pause(m)
	press(m, "y")
	settle(m)
	if ans, ok := answered(reply); !ok || !ans.Allow {
		t.Fatalf("y over /rewind: answer %+v (sent %v), want allow", ans, ok)
	}
	if len(ra.rewound) != 0 || overlayOf[*dialog.Rewind](m) != r || r.Step() != dialog.RewindList {
		t.Fatalf("the approval's keys reached /rewind: rewinds %q, step %v", ra.rewound, r.Step())
	}
	if s := screen(m); strings.Contains(s, "Allow bash?") || !strings.Contains(s, "Rewind to before") {
		t.Fatalf("after the answer, want the /rewind list on top:\n%s", s)
	}
	endTurn(t, m, ra.scriptAgent, agent.TurnEnd{Reason: agent.ReasonDone})
	press(m, "down")
	press(m, "enter")
	press(m, "c")
	pause(m)
	cmd := press(m, confirmKey(m))
	if cmd == nil {
		t.Fatalf("the confirmation did not rewind:\n%s", screen(m))
	}
	update(m, cmd())
	if len(ra.rewound) != 1 || ra.rewound[0] != "1 conversation" {
		t.Fatalf("rewinds = %q, want the conversation of point 1", ra.rewound)
	}
}

// rewindPlanAgent is a rewindAgent whose plan is a real agent's, so the
// user can edit it; a rewind of the conversation gives back the plan of
// then.
type rewindPlanAgent struct {
	*rewindAgent
	real *agent.Agent
	then todo.List
}

func (p rewindPlanAgent) EditPlan(e agent.PlanEdit) ([]agent.Event, error) { return p.real.EditPlan(e) }

func (p rewindPlanAgent) Rewind(ctx context.Context, id string, scope agent.RewindScope) (agent.Rewound, error) {
	res, err := p.rewindAgent.Rewind(ctx, id, scope)
	if scope != agent.RewindFiles {
		res.Events = []agent.Event{agent.TodoUpdate{List: p.then, Rev: 99}}
	}
	return res, err
}

// TestSeamRewindAfterPlanEdit: the user adds an item in the plan editor,
// then rewinds the conversation to before the message: the editor is
// closed, /rewind opens above nothing and the panel shows the plan of
// then, not the user's edit.
func TestSeamRewindAfterPlanEdit(t *testing.T) {
	then := plan("Ship it", "> Write code")
	real, err := agent.New(agent.Config{Model: noModel{}, Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := real.Restore(nil, then); err != nil {
		t.Fatal(err)
	}
	ra := &rewindAgent{scriptAgent: &scriptAgent{}}
	m, c := rewindModel(t, rewindPlanAgent{rewindAgent: ra, real: real, then: then}, ra)
	m.panel.SetList(then, m.now)
	submit(m, "/plan")
	if overlayOf[*dialog.PlanEditor](m) == nil {
		t.Fatalf("/plan opened no editor:\n%s", screen(m))
	}
	press(m, "a")
	typeText(m, "ZULU check")
	press(m, "enter")
	press(m, "esc")
	if s := screen(m); overlayOf[*dialog.PlanEditor](m) != nil || !strings.Contains(s, "ZULU check") {
		t.Fatalf("the user's item is not in the panel, or the editor is open:\n%s", s)
	}
	update(m, m.rewindCommand()())
	if top, ok := m.over.top().(*dialog.Rewind); !ok || len(m.over) != 1 {
		t.Fatalf("want /rewind alone on the stack, got %T of %d", top, len(m.over))
	}
	press(m, "down")
	press(m, "enter")
	press(m, "c")
	c.advance(time.Second)
	update(m, press(m, confirmKey(m))())
	s := screen(m)
	if len(ra.rewound) != 1 || strings.Contains(s, "ZULU check") || !strings.Contains(s, "Write code") {
		t.Errorf("after the rewind (rewinds %q) the panel should show the plan of then, not the edit:\n%s", ra.rewound, s)
	}
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "rewound the conversation to before the message “fix the bug”") {
		t.Errorf("the chat does not say what was rewound:\n%s", s)
	}
}
