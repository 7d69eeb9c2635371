package agent_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestSeamSpareAroundRerunApproval (the seam of the approval dialog and
// the sandbox's spare helper): a command the sandbox blocked runs in a
// spare helper; its approved rerun outside the sandbox runs in a helper of
// its own and does not use up or unlock the spare; the next command runs
// in a spare again, confined, and its rerun is asked about again.
func TestSeamSpareAroundRerunApproval(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	outside, err := os.MkdirTemp(home, ".tick-spare-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	first, second := filepath.Join(outside, "first"), filepath.Join(outside, "second")
	parent := `tr '\0' ' ' < /proc/$PPID/cmdline; echo; `
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk }, withSandbox(t))
	h.srv.Enqueue(
		calls(call("bash", bashArgs(t, parent+"echo x > "+first))),
		calls(call("bash", bashArgs(t, parent+"echo y > "+second))),
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

// bashArgs are the bash tool's arguments for command.
func bashArgs(t *testing.T, command string) string {
	b, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
