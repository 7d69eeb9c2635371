package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
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

// rewindPointOf is the id of the rewind point of the message text.
func rewindPointOf(t *testing.T, h *harness, text string) string {
	t.Helper()
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		if p.Kind == agent.PointTurn && p.Text == text {
			return p.ID
		}
	}
	t.Fatalf("no rewind point for %q: %+v", text, pts)
	return ""
}

// Seam: rewind pruning the plan's authority, the user's plan edits and a
// resumed session. The user rewords #2, then rewinds the conversation to
// before the edit: the list has #2's old text again, and the wording binds
// the model no more, neither now nor after the session is resumed (the
// pruned authority is what was saved, and RestorePlan does not bring the
// stale wording back).
func TestSeamRewoundEditStaysGoneAfterResume(t *testing.T) {
	dir := t.TempDir()
	var rec *session.Recorder
	h := newHarness(t, noReminder, withStore(t), func(c *agent.Config) {
		rec = session.NewRecorder(dir, c.Workspace, "test-model")
		c.Recorder = rec
	})
	h.srv.Enqueue(calls(call("todo", startList)), providertest.Reply{Text: "started"}, providertest.Reply{Text: "going on"})
	h.run("start")
	h.run("again")
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanText, ID: "2", Text: "BRAVO carefully"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ag.Rewind(context.Background(), rewindPointOf(t, h, "again"), agent.RewindConversation); err != nil {
		t.Fatal(err)
	}
	l := h.ag.Todos()
	if i := l.Find("2"); i < 0 || l.Items[i].Text != "BRAVO" {
		t.Fatalf("the list after the rewind: %+v; want #2 with its old text", l)
	}

	h2, ld, _ := resumed(t, rec, dir, h.dir)
	if _, ok := ld.Plan.Text["2"]; ok {
		t.Errorf("the saved plan state still has the rewound wording of #2: %+v", ld.Plan)
	}
	h2.srv.Enqueue(calls(call("todo", startList)), providertest.Reply{Text: "ok"})
	evs := h2.run("go on")
	h2.checkValid()
	ends := toolEnds(evs)
	if len(ends) != 1 || ends[0].IsError {
		t.Fatalf("the model's list keeping #2's old text after the rewind and resume: %+v; want it accepted", ends)
	}
}

// Seam: plan replacement and undo. A finished plan's #1 has an undo
// point; the model's next plan, with another goal, reuses the id #1 for
// new work. Undoing #1 then takes back the new #1's work alone: the
// archived plan's point is not the new item's (its first start in the new
// plan makes a point of its own).
func TestSeamUndoAfterPlanReplacedReusesID(t *testing.T) {
	h := newHarness(t, noReminder, withStore(t))
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		answers := 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				answers++
			}
		}
		steps := map[int]providertest.Reply{
			0: calls(call("todo", `{"goal":"Build it","items":[{"id":"1","text":"Build","status":"in_progress"}]}`)),
			1: calls(call("write_file", `{"path":"a.txt","content":"a"}`)),
			2: calls(call("todo", `{"goal":"Build it","items":[{"id":"1","text":"Build","status":"completed"}]}`)),
			4: calls(call("todo", `{"goal":"Ship it","items":[{"id":"1","text":"Deploy","status":"in_progress"}]}`)),
			5: calls(call("write_file", `{"path":"b.txt","content":"b"}`)),
		}
		if rep, ok := steps[answers]; ok {
			return rep
		}
		return providertest.Reply{Text: "done"}
	})
	h.run("build")
	h.run("ship")
	h.checkValid()
	if l := h.ag.Todos(); len(l.Items) != 1 || l.Items[0].Text != "Deploy" || len(h.ag.Archived()) != 1 {
		t.Fatalf("list %+v, archived %d; want the new plan's #1 and the old plan archived", l, len(h.ag.Archived()))
	}
	pre, err := h.ag.PreviewUndo(context.Background(), "1")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, c := range pre.Changes {
		files = append(files, c.Path)
	}
	if pre.Text != "Deploy" || strings.Join(files, ",") != "b.txt" {
		t.Fatalf("/undo 1 would undo %q changing %v; want the new #1 \"Deploy\" and b.txt alone", pre.Text, files)
	}
	if _, _, err := h.ag.Undo(context.Background(), "1"); err != nil {
		t.Fatal(err)
	}
	if a, b := readFile(t, h.dir, "a.txt"), readFile(t, h.dir, "b.txt"); a != "a" || b != "<missing>" {
		t.Errorf("after /undo 1: a.txt %q, b.txt %q; want the old plan's a.txt kept and b.txt gone", a, b)
	}
}

// Seam: undo and the user's plan edits. The user cancelled #2 after it
// started; undoing #1 takes #2's work back too, but #2 stays cancelled,
// as the user left it: an undo never re-opens what the user cancelled,
// and the model's next list keeping it cancelled is accepted.
func TestSeamUndoKeepsUserCancel(t *testing.T) {
	h := newHarness(t, noReminder, withStore(t))
	two := func(s1, s2 string) providertest.Reply {
		return calls(call("todo", `{"items":[{"id":"1","text":"One","status":"`+s1+`"},{"id":"2","text":"Two","status":"`+s2+`"}]}`))
	}
	h.srv.Enqueue(
		two("in_progress", "pending"),
		calls(call("write_file", `{"path":"a.txt","content":"a"}`)),
		two("completed", "in_progress"),
		calls(call("write_file", `{"path":"b.txt","content":"b"}`)),
		providertest.Reply{Text: "paused"},
	)
	h.run("do both")
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanCancel, ID: "2", Reason: "not wanted"}); err != nil {
		t.Fatal(err)
	}
	pre, _, err := h.ag.Undo(context.Background(), "1")
	if err != nil {
		t.Fatal(err)
	}
	if a, b := readFile(t, h.dir, "a.txt"), readFile(t, h.dir, "b.txt"); a != "<missing>" || b != "<missing>" {
		t.Fatalf("after /undo 1: a.txt %q, b.txt %q; want both taken back (undone %v)", a, b, pre.Undone)
	}
	l := h.ag.Todos()
	if i := l.Find("2"); i < 0 || l.Items[i].Status != todo.Cancelled {
		t.Fatalf("after /undo 1 the list is %+v; want #2 still cancelled by the user", l)
	}
	h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"One","status":"in_progress"},{"id":"2","text":"Two","status":"cancelled","note":"not wanted"}]}`)), providertest.Reply{Text: "ok"})
	evs := h.run("go on")
	h.checkValid()
	if ends := toolEnds(evs); len(ends) != 1 || ends[0].IsError {
		t.Fatalf("the model's list keeping #2 cancelled: %+v; want it accepted", ends)
	}
}
