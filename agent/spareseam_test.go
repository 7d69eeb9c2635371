package agent_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/internal/proctest"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// TestSeamSpareAroundRerunApproval (the seam of the approval dialog and
// the sandbox's spare helper): a command the sandbox blocked runs in a
// spare helper; its approved rerun outside the sandbox runs in a helper of
// its own and does not use up or unlock the spare; the next command runs
// in a spare again, confined, and its rerun is asked about again.
func TestSeamSpareAroundRerunApproval(t *testing.T) {
	outside := outsideDir(t, ".tick-spare-")
	first, second := filepath.Join(outside, "first"), filepath.Join(outside, "second")
	parent := `tr '\0' ' ' < /proc/$PPID/cmdline; echo; `
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk }, withSandbox(t))
	h.srv.Enqueue(
		calls(bashCall(t, parent+"echo x > "+first)),
		calls(bashCall(t, parent+"echo y > "+second)),
		providertest.Reply{Text: "ok"})
	n := 0
	reqs, ends := turn(t, h, func(r agent.ApprovalRequest) agent.Approval {
		n++
		return agent.Approval{Allow: n == 1} // the first command's rerun, not the second's
	})
	if len(reqs) != 2 || !reqs[0].Rerun || !reqs[1].Rerun {
		t.Fatalf("requests %+v, want a rerun offered for each command", reqs)
	}
	if !strings.Contains(reqs[0].Detail, "__sandbox --spare") {
		t.Errorf("the first command did not run in a spare helper:\n%s", reqs[0].Detail)
	}
	if _, err := os.Stat(first); err != nil {
		t.Errorf("the approved rerun did not write outside: %v\n%s", err, ends[0].Output)
	}
	if _, err := os.Stat(second); err == nil {
		t.Errorf("the second command wrote outside without an approved rerun:\n%s", ends[1].Output)
	}
	if len(ends) != 2 || !strings.Contains(ends[1].Output, "__sandbox --spare") {
		t.Errorf("the second command did not run in a spare helper:\n%+v", ends)
	}
}

// TestSeamCancelItemStopsItsCommandInASpare (the seam of the user's plan
// edits and the sandbox's spare helpers): a task on item #2 runs a long
// command, which its runner hands to a spare helper; the user cancels #2
// while it runs. The command and everything in its helper end, #2 stays
// cancelled with the user's reason, and the turn ends valid.
func TestSeamCancelItemStopsItsCommandInASpare(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	marker := "tick-spare-cancel-" + filepath.Base(t.TempDir())
	h := newHarness(t, withSandbox(t))
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			if answersOf(r) == 0 {
				return calls(bashCall(t, "exec -a "+marker+" sleep 300"))
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
	parent := make(chan string, 1)
	go func() { // the user cancels #2 once its command runs
		defer close(parent)
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if pids := proctest.Named(t, marker); len(pids) > 0 {
				parent <- parentCommandLine(pids[0])
				if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanCancel, ID: "2", Reason: "not now"}); err != nil {
					t.Error(err)
				}
				return
			}
		}
	}()
	var evs []agent.Event
	for ev := range h.ag.Run(context.Background(), "PARENT: plan") {
		evs = append(evs, ev)
	}
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if got := <-parent; !strings.Contains(got, "__sandbox --spare") {
		t.Errorf("the task's command did not run in a spare helper; its parent: %q", got)
	}
	if pids := proctest.Named(t, marker); len(pids) > 0 {
		t.Errorf("the cancelled item's command still runs: %v", pids)
	}
	list := h.ag.Todos()
	if it := list.Items[list.Find("2")]; it.Status != todo.Cancelled || it.Note != "not now" {
		t.Errorf("item #2 = %s %q, want it cancelled with the user's reason", it.Status, it.Note)
	}
	noLoopGoroutines(t)
}

// parentCommandLine is the command line of pid's parent, its arguments
// joined by spaces; "" when either is gone.
func parentCommandLine(pid string) string {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 2 {
		return ""
	}
	cl, _ := os.ReadFile("/proc/" + f[1] + "/cmdline")
	return strings.ReplaceAll(string(cl), "\x00", " ")
}

// TestSeamRewindUnderASpare (the seam of rewind and the sandbox's spare
// helpers): commands run in spare helpers change a file over two
// messages; rewinding to the second message's point puts the file back
// under the spare that is already waiting, and the next command, in that
// spare, reads what the rewind restored.
func TestSeamRewindUnderASpare(t *testing.T) {
	h := newHarness(t, withStore(t), withSandbox(t))
	h.ag.SetMode(agent.ModeAuto)
	parent := `tr '\0' ' ' < /proc/$PPID/cmdline; echo; `
	h.srv.Enqueue(calls(bashCall(t, parent+"echo one > a.txt")), providertest.Reply{Text: "ok"})
	turn(t, h, nil)
	h.srv.Enqueue(calls(bashCall(t, parent+"echo two > a.txt")), providertest.Reply{Text: "ok"})
	if _, ends := turn(t, h, nil); len(ends) != 1 || !strings.Contains(ends[0].Output, "__sandbox --spare") {
		t.Fatalf("the second command did not run in a spare helper: %+v", ends)
	}
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil || len(pts) != 2 {
		t.Fatalf("points %+v, %v; want one per message", pts, err)
	}
	if _, err := h.ag.Rewind(context.Background(), pts[0].ID, agent.RewindFiles); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(calls(bashCall(t, parent+"cat a.txt")), providertest.Reply{Text: "ok"})
	_, ends := turn(t, h, nil)
	if len(ends) != 1 || !strings.Contains(ends[0].Output, "__sandbox --spare") || !strings.Contains(ends[0].Output, "\none\n") {
		t.Errorf("the command after the rewind, in a spare, read:\n%+v", ends)
	}
}
