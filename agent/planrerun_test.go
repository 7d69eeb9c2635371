package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// TestCancelItemWhileSandboxRerunWaits is the seam of agent/plan and the
// sandbox's "run it again outside?" question: a task on item #2 runs a
// command the sandbox stops (a write outside the workspace), and while
// the question for it waits, the user cancels #2. The user's "yes",
// given after the cancel, runs nothing: the file outside is never made,
// #2 stays cancelled with the user's reason, and the turn ends valid.
func TestCancelItemWhileSandboxRerunWaits(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	outside := outsideDir(t, ".tick-planrerun-")
	target := filepath.Join(outside, "made")
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk }, withSandbox(t))
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			if answersOf(r) == 0 {
				return calls(call("bash", `{"command":"echo x > `+target+`"}`))
			}
			return providertest.Reply{Text: "report 2"}
		}
		switch answersOf(r) {
		case 0:
			return calls(call("todo", threeItems))
		case 1:
			return calls(taskCall(2, `,"item":"2"`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	var evs []agent.Event
	reruns := 0
	for ev := range h.ag.Run(context.Background(), "PARENT: plan") {
		evs = append(evs, ev)
		req, ok := ev.(agent.ApprovalRequest)
		if !ok {
			continue
		}
		if !req.Rerun {
			req.Reply <- agent.Approval{}
			t.Errorf("an approval other than the rerun's: %+v", req)
			continue
		}
		reruns++
		pev, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanCancel, ID: "2", Reason: "stay inside"})
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, pev...)
		req.Reply <- agent.Approval{Allow: true} // the answer comes after the cancel
	}
	if reruns != 1 {
		t.Fatalf("the rerun question came %d times, want once: %v", reruns, evs)
	}
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if _, err := os.Stat(target); err == nil {
		t.Error("the cancelled task's command ran outside the sandbox on the answer given after the cancel")
	}
	list := h.ag.Todos()
	if it := list.Items[list.Find("2")]; it.Status != todo.Cancelled || it.Note != "stay inside" {
		t.Errorf("item #2 = %s %q, want it cancelled with the user's reason", it.Status, it.Note)
	}
	noLoopGoroutines(t)
}
