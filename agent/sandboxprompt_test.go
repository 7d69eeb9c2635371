package agent_test

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/provider/providertest"
)

func TestSystemPromptSaysWhatTheSandboxAllows(t *testing.T) {
	tests := []struct {
		name     string
		mode     sandbox.Mode
		approval agent.ApprovalMode
		want     []string
	}{
		{"workspace-write, asking", sandbox.WorkspaceWrite, agent.ApproveAsk, []string{"Sandbox (workspace-write)", "the workspace (not .git)", "/srv/extra", "no network", "asked whether to run it again outside the sandbox"}},
		{"read-only, yolo", sandbox.ReadOnly, agent.ApproveAll, []string{"Sandbox (read-only)", "no network", "--sandbox danger-full-access"}},
		{"full access", sandbox.FullAccess, agent.ApproveAsk, []string{"Sandbox: none"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *agent.Config) {
				p := sandbox.Policy{Mode: tt.mode, Workspace: c.Workspace, WritableRoots: []string{"/srv/extra"}}
				c.ToolOptions.Sandbox = sandbox.StartRunner(p, func() sandbox.Support { return sandbox.Support{} })
				c.Approval = tt.approval
			})
			h.srv.Enqueue(providertest.Reply{Text: "hi"}, providertest.Reply{Text: "hi"})
			end(t, h.run("hello"))
			end(t, h.run("again"))
			reqs := h.srv.Requests()
			system := reqs[0].Messages[0].Content
			for _, w := range tt.want {
				if !strings.Contains(system, w) {
					t.Errorf("the system prompt lacks %q:\n%s", w, system)
				}
			}
			if reqs[1].Messages[0].Content != system {
				t.Error("the system prompt changed between turns")
			}
		})
	}
}

func TestPromptSizeStaysSmall(t *testing.T) {
	h := newHarness(t)
	s := h.ag.PromptSize()
	t.Logf("system prompt ~%d tokens, tool schemas ~%d tokens", s.System, s.Tools)
	if s.System < 100 || s.Tools < 100 {
		t.Fatalf("implausible sizes %+v", s)
	}
	// Local models often run with 8k to 32k tokens of context: what every
	// request carries must leave most of it to the work.
	if s.Total() > 6000 {
		t.Errorf("system prompt and tool schemas take ~%d tokens, over the 6000 budget", s.Total())
	}
}
