package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// TestToolOutputLive: a running command's output shows under its line as
// it comes (the last lines), ctrl+o shows all of it while it runs, and its
// result replaces it at the end.
func TestToolOutputLive(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	submit(m, "build")
	events(t, m, agent.ToolStart{ID: "1", Name: "bash", Summary: "make"})
	tail := "step 1\nstep 2\nstep 3\nstep 4\nstep 5\ncompiling 10%\rcompiling 90%\r"
	events(t, m, agent.ToolOutput{ID: "1", Tail: tail, Total: int64(len(tail))})
	s := screen(m)
	for _, want := range []string{"step 4", "step 5", "compiling 90%", "3 lines above (ctrl+o shows all)"} {
		if !strings.Contains(s, want) {
			t.Fatalf("live output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "step 1") || strings.Contains(s, "10%") {
		t.Fatalf("live output shows more than its last lines:\n%s", s)
	}
	press(m, "ctrl+o")
	if s := screen(m); !strings.Contains(s, "step 1") || !strings.Contains(s, "step 5") {
		t.Fatalf("ctrl+o does not show all of the running output:\n%s", s)
	}
	events(t, m, agent.ToolOutput{ID: "1", Tail: "\x1b]0;pwned\x07step 6 \x1b[31mred\n", Total: 200})
	if v := m.View().Content; strings.Contains(v, "\x1b]0") || strings.Contains(v, "\x07") {
		t.Fatalf("a control sequence of the output reached the screen: %q", v)
	}
	events(t, m, agent.ToolEnd{ID: "1", Name: "bash", Output: "all built\nexit status 0"})
	if s := screen(m); !strings.Contains(s, "all built") || strings.Contains(s, "compiling") {
		t.Fatalf("the result did not replace the live output:\n%s", s)
	}
}

// TestSubagentToolOutputLive: a subagent's running command shows its
// output under its nested line.
func TestSubagentToolOutputLive(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	submit(m, "delegate")
	events(t, m, agent.ToolStart{ID: "t1", Name: agent.TaskTool, Summary: "look around"},
		agent.Subagent{ParentID: "t1", Event: agent.ToolStart{ID: "c1", Name: "bash", Summary: "make"}},
		agent.Subagent{ParentID: "t1", Event: agent.ToolOutput{ID: "c1", Tail: "child says hi\n", Total: 14}})
	if s := screen(m); !strings.Contains(s, "child says hi") {
		t.Fatalf("the subagent's live output is not shown:\n%s", s)
	}
	events(t, m, agent.Subagent{ParentID: "t1", Event: agent.ToolEnd{ID: "c1", Name: "bash", Output: "done\nexit status 0"}})
	if s := screen(m); strings.Contains(s, "child says hi") {
		t.Fatalf("the live output stayed after the call ended:\n%s", s)
	}
}
