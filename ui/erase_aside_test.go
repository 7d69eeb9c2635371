package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/dialog"
)

// TestEraseTypedAsideOverApproval: text typed over an open approval goes
// aside into the input, and backspace and ctrl+w edit it there while the
// question waits: they answer nothing, the answer comes after, and the
// input holds the corrected text. Before, they did nothing until the
// question was answered. Seams: the main agent's approval; a task's
// approval while tasks run side by side, over the plan editor (the
// erasing keys reach neither the editor nor the plan).
func TestEraseTypedAsideOverApproval(t *testing.T) {
	bs := tea.KeyPressMsg{Code: tea.KeyBackspace}
	ctrlW := tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
	tests := []struct {
		name  string
		tasks bool
		keys  []any // a string is typed, a key pressed
		want  string
	}{
		{"backspace", false, []any{"also fix teh", bs, bs, "he"}, "also fix the"},
		{"ctrl+w", false, []any{"also fix teh", ctrlW, "the"}, "also fix the"},
		{"a task's approval over the plan editor", true, []any{"docs tooo", bs, ctrlW, "too"}, "docs too"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newTestModel(t, 140, 30)
			reply := make(chan agent.Approval, 1)
			req := agent.ApprovalRequest{ID: "c1", Tool: "bash", Summary: "make", Detail: "make", Reply: reply}
			if tt.tasks {
				threeTasks(t, m)
				press(m, "ctrl+p")
				req.Task = "t2"
				events(t, m, agent.Subagent{ParentID: "t2", Event: agent.ToolStart{ID: "c1", Name: "bash", Summary: "make"}}, req)
			} else {
				submit(m, "go")
				events(t, m, agent.ToolStart{ID: "c1", Name: "bash", Summary: "make"}, req)
			}
			plan := m.panel.List()
			if _, ok := m.over.top().(*dialog.Approvals); !ok {
				t.Fatalf("the approval is not on top: %T", m.over.top())
			}
			for _, k := range tt.keys {
				if s, ok := k.(string); ok {
					typeText(m, s)
				} else {
					update(m, k.(tea.KeyPressMsg))
				}
			}
			select {
			case ans := <-reply:
				t.Fatalf("the typing answered the approval: %+v", ans)
			default:
			}
			if got := m.input.Value(); got != tt.want {
				t.Fatalf("the input holds %q, want %q", got, tt.want)
			}
			pause(m)
			press(m, "y")
			if ans := <-reply; !ans.Allow {
				t.Fatalf("y after a pause answered %+v, want allow", ans)
			}
			if got := m.input.Value(); got != tt.want {
				t.Fatalf("after the answer the input holds %q, want %q", got, tt.want)
			}
			if tt.tasks {
				if ed := overlayOf[*dialog.PlanEditor](m); ed == nil || ed.Typing() != "" {
					t.Fatal("the plan editor below lost its state or took the keys")
				}
				if len(m.panel.List().Items) != len(plan.Items) {
					t.Fatalf("the plan changed: %+v", m.panel.List().Items)
				}
			}
		})
	}
}
