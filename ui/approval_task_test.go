package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// Issue 31 (also): an approval from a task names the task even when no
// plan shows it.
func TestApprovalNamesTaskWithoutPlan(t *testing.T) {
	m, _ := newTestModel(t, 140, 40)
	submit(m, "make the hooks")
	events(t, m, agent.ToolStart{ID: "t1", Name: "task", Summary: "make hooks"},
		agent.ApprovalRequest{ID: "c1", Tool: "bash", Summary: "make", Detail: "make", Task: "t1", TaskName: "make hooks", Reply: make(chan agent.Approval, 1)})
	if s := screen(m); !strings.Contains(s, "from the task make hooks") {
		t.Errorf("the approval does not name its task:\n%s", s)
	}
}
