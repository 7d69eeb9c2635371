package agent_test

import (
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestSeamTimedOutCommandReplaysAsLive: the seam of the live loop and a
// resumed session. A real command prints "exit status 0" and is then
// killed by its timeout: live it failed, and the saved conversation
// replays it as failed too, without exit status 0 (ExitCodeOf took the
// command's own words for tick's status line).
func TestSeamTimedOutCommandReplaysAsLive(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		calls(call("bash", `{"command":"for i in 1 2 3 4 5 6 7 8; do echo line $i; done; echo 'exit status 0'; sleep 30","timeout":1}`)),
		providertest.Reply{Text: "it hung"})
	live := toolEnds(h.run("go"))
	if len(live) != 1 || !live[0].IsError {
		t.Fatalf("live tool ends = %+v, want one failed call", live)
	}
	var replayed []agent.ToolEnd
	for _, ev := range agent.Replay(h.ag.History()) {
		if e, ok := ev.(agent.ToolEnd); ok {
			replayed = append(replayed, e)
		}
	}
	if len(replayed) != 1 {
		t.Fatalf("%d replayed tool ends, want 1", len(replayed))
	}
	r := replayed[0]
	if !r.IsError || r.ExitCode != nil && *r.ExitCode == 0 {
		t.Fatalf("replayed: is_error %v, exit code %v; want failed, as live (exit code %v)", r.IsError, deref(r.ExitCode), deref(live[0].ExitCode))
	}
	if line, _ := agent.StatusLine(r.Output); line == "exit status 0" {
		t.Errorf("the status line of %q is the command's own words", r.Output)
	}
}
