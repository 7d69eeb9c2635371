package agent_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// subagentToolEnds returns the ToolEnd events of the subagents' calls,
// by the task call that ran them.
func subagentToolEnds(evs []agent.Event) map[string][]agent.ToolEnd {
	out := map[string][]agent.ToolEnd{}
	for _, ev := range evs {
		if s, ok := ev.(agent.Subagent); ok {
			if te, ok := s.Event.(agent.ToolEnd); ok {
				out[s.ParentID] = append(out[s.ParentID], te)
			}
		}
	}
	return out
}

// Seam: the git guard, parallel tasks and -p. Two tasks run side by
// side headless; one writes into .git (refused: nobody can approve it),
// the other an ordinary file. Each call's ToolEnd carries its own
// outcome: the refused write says Refused and GitWrite, the other call
// neither, however the two interleave.
func TestSeamParallelTasksGitGuardHeadless(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) { c.Headless = true })
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if n, ok := strings.CutPrefix(r.Messages[1].Content, "CHILD "); ok {
			if r.Last().Role != "user" {
				return providertest.Reply{Text: "report " + n}
			}
			h.srv.WaitOpen(2, 5*time.Second)
			if n == "1" {
				return calls(call("write_file", `{"path":".git/hooks/pre-commit","content":"#!/bin/sh\nexit 0\n"}`))
			}
			return calls(call("write_file", `{"path":"ok.txt","content":"fine"}`))
		}
		if r.Last().Role == "user" {
			return calls(taskCall(1, ""), taskCall(2, ""))
		}
		return providertest.Reply{Text: "parent done"}
	})
	evs := h.run("PARENT: two tasks")
	h.checkValid()
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	ends := subagentToolEnds(evs)
	if len(ends) != 2 {
		t.Fatalf("subagent ToolEnds by task = %v; want two tasks' calls", ends)
	}
	for id, tes := range ends {
		if len(tes) != 1 {
			t.Fatalf("task %s: %d ToolEnds, want 1", id, len(tes))
		}
		te := tes[0]
		git := strings.Contains(te.Output, ".git")
		if te.Refused != git || te.GitWrite != git {
			t.Errorf("task %s ToolEnd: Refused %v, GitWrite %v for %q; want both %v", id, te.Refused, te.GitWrite, te.Output, git)
		}
	}
	if got := readFile(t, h.dir, ".git/hooks/pre-commit"); got != "<missing>" {
		t.Errorf("the refused write reached the workspace: %q", got)
	}
	if got := readFile(t, h.dir, "ok.txt"); got != "fine" {
		t.Errorf("ok.txt = %q, want the other task's change merged", got)
	}
}
