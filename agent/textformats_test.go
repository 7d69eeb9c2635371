package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// recoveredNotice returns the notices that say a call was read from the
// model's text.
func recoveredNotices(evs []agent.Event) []string {
	var out []string
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, "from the model's text") {
			out = append(out, n.Text)
		}
	}
	return out
}

// TestCallInsideThoughtsRuns: a server's reasoning parser put the call in
// the reasoning and the answer is empty (Qwen3 writing its call before
// </think>): the call runs, and the chat says where it came from, instead
// of the turn ending as an empty answer.
func TestCallInsideThoughtsRuns(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		providertest.Reply{Reasoning: "The user wants a check.\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"echo thought-ok\"}}\n</tool_call>", ChunkSize: 4},
		providertest.Reply{Text: "It printed thought-ok."},
	)
	evs := h.run("check")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %v: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if ends := toolEnds(evs); len(ends) != 1 || !strings.Contains(ends[0].Output, "thought-ok") {
		t.Fatalf("tool ends %+v, want the call from the thoughts to run", ends)
	}
	if n := recoveredNotices(evs); len(n) != 1 || !strings.Contains(n[0], "inside its thoughts") {
		t.Errorf("notices %q, want one that says the call was inside the thoughts", n)
	}
}

// TestThoughtsWithCallAndAnswerNotRun: when the model also answered, a
// call written in its thoughts is only thinking.
func TestThoughtsWithCallAndAnswerNotRun(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(providertest.Reply{
		Reasoning: "I could run <tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"touch ran\"}}</tool_call>",
		Text:      "No need: it is 4.",
	})
	evs := h.run("2+2?")
	end(t, evs)
	if ends := toolEnds(evs); len(ends) != 0 {
		t.Errorf("tool ends %+v, want none", ends)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "ran")); err == nil {
		t.Error("the call in the thoughts ran")
	}
}

// TestRecoveredCallAsksAndIsSandboxed: a call recovered from a format the
// server left as text (Kimi-K2's section) asks for approval like a real
// call, and runs in the sandbox: its write outside the workspace fails
// (and the offer to run it again without the sandbox is declined).
func TestRecoveredCallAsksAndIsSandboxed(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk }, withSandbox(t))
	h.ag.SetMode(agent.ModeAsk)
	outside := filepath.Join(filepath.Dir(h.dir), "escaped-"+filepath.Base(h.dir))
	h.srv.Enqueue(
		providertest.Reply{Text: "Writing it.<|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>{\"command\": \"echo x > " + outside + "\"}<|tool_call_end|><|tool_calls_section_end|>", ChunkSize: 3},
		providertest.Reply{Text: "done"},
	)
	reqs, ends := turn(t, h, func(r agent.ApprovalRequest) agent.Approval {
		if r.Rerun {
			return agent.Approval{} // no: not without the sandbox
		}
		return allowOnce(r)
	})
	h.checkValid()
	if len(reqs) == 0 || reqs[0].Tool != "bash" || reqs[0].Rerun {
		t.Fatalf("approval requests %+v, want one for the recovered bash call first", reqs)
	}
	if len(ends) != 1 || !ends[0].IsError {
		t.Errorf("tool ends %+v, want the write outside the workspace to fail", ends)
	}
	if _, err := os.Stat(outside); err == nil {
		os.Remove(outside)
		t.Fatal("the recovered call wrote outside the workspace")
	}
	for _, m := range h.srv.Requests()[1].Messages {
		if m.Role == "assistant" && (strings.Contains(m.Content, "<|") || m.Content != "Writing it.") {
			t.Errorf("assistant message sent back %q, want the text before the call alone", m.Content)
		}
	}
}
