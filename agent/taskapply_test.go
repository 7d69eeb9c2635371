package agent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/provider/providertest"
)

const tenLines = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"

// conflictingTasks runs a turn whose two tasks (on items 1 and 2 when
// items is set) both change line 5 of a.txt, the second also line 9 and
// c.txt, with an undo store: one merges, the other is kept. It returns
// the harness and the kept task.
func conflictingTasks(t *testing.T, items bool) (*harness, agent.KeptTask, []agent.Event) {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) {
		s, err := checkpoint.Open(context.Background(), filepath.Join(t.TempDir(), "cp"), c.Workspace)
		if err != nil {
			t.Fatal(err)
		}
		c.Checkpoints = s
	})
	if err := os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte(tenLines), 0o644); err != nil {
		t.Fatal(err)
	}
	one := strings.Replace(tenLines, "5\n", "five one\n", 1)
	two := strings.Replace(strings.Replace(tenLines, "5\n", "five two\n", 1), "9\n", "nine\n", 1)
	child := parentFunc(h, map[string]map[string]string{"1": {"a.txt": one}, "2": {"a.txt": two, "c.txt": "only two\n"}})
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			return child(r)
		}
		answers := 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				answers++
			}
		}
		switch {
		case answers == 0 && items:
			return calls(call("todo", `{"items":[{"id":"1","text":"A","status":"pending"},{"id":"2","text":"B","status":"pending"}]}`))
		case answers == 0:
			return calls(taskCall(1, ""), taskCall(2, ""))
		case answers == 1 && items:
			return calls(taskCall(1, `,"item":"1"`), taskCall(2, `,"item":"2"`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	evs := h.run("PARENT: both change a.txt")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	kept := h.ag.KeptTasks()
	if len(kept) != 1 {
		t.Fatalf("kept tasks %+v, want the one that conflicted", kept)
	}
	return h, kept[0], evs
}

func fileText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestApplyKeptTaskMarksConflicts: a task's patch conflicted; the notice
// numbers it; its patch shows; applying it writes the conflicting hunk
// between markers and takes the rest; the model is told before its next
// call (the request stays valid); /undo takes the apply back, and the
// task can be applied again.
func TestApplyKeptTaskMarksConflicts(t *testing.T) {
	h, k, evs := conflictingTasks(t, false)
	var offered bool
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok && n.KeptTask == k.N && n.KeptCopy == k.Dir && strings.Contains(n.Text, "meanwhile (a.txt)") {
			offered = true
		}
	}
	if !offered {
		t.Error("the conflict's notice does not number the kept task")
	}
	patch, err := h.ag.TaskPatch(k.N)
	if err != nil || !strings.Contains(patch.Patch, "diff --git a/a.txt b/a.txt") || !strings.Contains(patch.Patch, "+five ") || !strings.Contains(patch.Patch, "-5\n") {
		t.Fatalf("TaskPatch = %+v, %v; want a.txt's diff from before the task", patch, err)
	}
	before := fileText(t, filepath.Join(h.dir, "a.txt"))
	out, err := h.ag.ApplyTask(context.Background(), k.N)
	if err != nil {
		t.Fatal(err)
	}
	got := fileText(t, filepath.Join(h.dir, "a.txt"))
	if !strings.Contains(got, "<<<<<<< current\n") || !strings.Contains(got, "five one\n=======\nfive two\n>>>>>>> task\n") && !strings.Contains(got, "five two\n=======\nfive one\n>>>>>>> task\n") {
		t.Errorf("a.txt after the apply = %q, want line 5's conflict marked", got)
	}
	if !strings.Contains(got, "nine\n") {
		t.Errorf("a.txt = %q, want the non-conflicting line 9 taken", got)
	}
	var said bool
	for _, ev := range out {
		if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, "conflicts marked") && strings.Contains(n.Text, "a.txt (1)") {
			said = true
		}
	}
	if !said {
		t.Errorf("ApplyTask's events %+v do not say where conflicts are marked", out)
	}
	if _, err := h.ag.ApplyTask(context.Background(), k.N); err == nil || !strings.Contains(err.Error(), "applied already") {
		t.Errorf("a second apply = %v, want it refused", err)
	}
	h.srv.SetFunc(func(providertest.Request) providertest.Reply { return providertest.Reply{Text: "ok"} })
	h.run("NEXT")
	h.checkValid()
	reqs := h.srv.Requests()
	last := reqs[len(reqs)-1]
	var told bool
	for _, m := range last.Messages {
		if strings.Contains(m.Content, "The user applied the changes of the task") && strings.Contains(m.Content, "a.txt was merged with 1 conflicting hunk") {
			told = true
		}
	}
	if !told {
		t.Error("the model was not told what the user applied")
	}
	if _, _, err := h.ag.Undo(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if now := fileText(t, filepath.Join(h.dir, "a.txt")); now != before {
		t.Errorf("after /undo a.txt = %q, want %q as before the apply", now, before)
	}
	if h.ag.KeptTasks()[0].Applied {
		t.Error("the task is still marked applied after its apply was undone")
	}
}

// TestApplyKeptTaskRewind: the apply is a rewind point; rewinding the
// files to it takes the apply back.
func TestApplyKeptTaskRewind(t *testing.T) {
	h, k, _ := conflictingTasks(t, false)
	before := fileText(t, filepath.Join(h.dir, "a.txt"))
	if _, err := h.ag.ApplyTask(context.Background(), k.N); err != nil {
		t.Fatal(err)
	}
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var id string
	for _, p := range pts {
		if p.Kind == agent.PointApply {
			id = p.ID
		}
	}
	if id == "" {
		t.Fatalf("no rewind point for the apply among %+v", pts)
	}
	if _, err := h.ag.Rewind(context.Background(), id, agent.RewindFiles); err != nil {
		t.Fatal(err)
	}
	if now := fileText(t, filepath.Join(h.dir, "a.txt")); now != before {
		t.Errorf("after the rewind a.txt = %q, want %q", now, before)
	}
	if h.ag.KeptTasks()[0].Applied {
		t.Error("the task is still marked applied after the rewind")
	}
}

// TestApplyKeptTaskOfCancelledItem: the user cancelled the kept task's
// item after the conflict: applying it is refused, saying so, and no
// file changes.
func TestApplyKeptTaskOfCancelledItem(t *testing.T) {
	h, k, _ := conflictingTasks(t, true)
	if k.Item == "" {
		t.Fatalf("kept task %+v has no item", k)
	}
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanCancel, ID: k.Item, Reason: "not wanted"}); err != nil {
		t.Fatal(err)
	}
	before := fileText(t, filepath.Join(h.dir, "a.txt"))
	_, err := h.ag.ApplyTask(context.Background(), k.N)
	if err == nil || !strings.Contains(err.Error(), "you cancelled its item #"+k.Item) {
		t.Fatalf("ApplyTask = %v, want it refused: the user cancelled the item", err)
	}
	if fileText(t, filepath.Join(h.dir, "a.txt")) != before {
		t.Error("the refused apply changed a.txt")
	}
	if _, err := h.ag.ApplyTask(context.Background(), 9); !errors.Is(err, agent.ErrNoKeptTask) {
		t.Errorf("ApplyTask(9) = %v, want ErrNoKeptTask", err)
	}
}

// TestApplyKeptTaskRefusedThroughLink (seam: the sandbox and the git
// guard): after the conflict, a directory of the workspace became a link
// to .git and the kept copy holds a file beneath it: ApplyTask refuses
// the whole patch, writes nothing (into .git above all), and leaves no
// undo point of its own.
func TestApplyKeptTaskRefusedThroughLink(t *testing.T) {
	h, k, _ := conflictingTasks(t, false)
	if err := os.MkdirAll(filepath.Join(h.dir, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(h.dir, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(k.Dir, "d", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(k.Dir, "d", "hooks", "pre-commit"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := fileText(t, filepath.Join(h.dir, "a.txt"))
	_, err := h.ag.ApplyTask(context.Background(), k.N)
	if err == nil || !strings.Contains(err.Error(), "tick refused the whole patch: d/hooks/pre-commit") || !strings.Contains(err.Error(), "nothing was applied") {
		t.Fatalf("ApplyTask = %v, want the patch refused naming d/hooks/pre-commit", err)
	}
	if _, err := os.Lstat(filepath.Join(h.dir, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the apply wrote into .git through the link")
	}
	if fileText(t, filepath.Join(h.dir, "a.txt")) != before {
		t.Error("a refused apply changed a.txt")
	}
	pts, _ := h.ag.RewindPoints(context.Background())
	for _, p := range pts {
		if p.Kind == agent.PointApply {
			t.Errorf("a refused apply left its undo point %+v", p)
		}
	}
	if h.ag.KeptTasks()[0].Applied {
		t.Error("a refused apply marked the task applied")
	}
}

// TestApplyKeptTaskWhileTaskRuns (seam: parallel tasks): a kept task is
// applied while the next turn's task still runs; the apply goes through
// at once, and the model hears of it at its next call in that turn, the
// conversation valid.
func TestApplyKeptTaskWhileTaskRuns(t *testing.T) {
	h, k, _ := conflictingTasks(t, false)
	release, started := make(chan struct{}), make(chan struct{}, 1)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if r.Messages[1].Content == "SLOW" {
			started <- struct{}{}
			<-release
			return providertest.Reply{Text: "slow report"}
		}
		if r.Last().Role == "user" && strings.Contains(r.Last().Content, "AGAIN") {
			return calls(call("task", `{"description":"slow","prompt":"SLOW","read_only":true}`))
		}
		return providertest.Reply{Text: "parent done again"}
	})
	done := make(chan []agent.Event, 1)
	go func() { done <- h.run("AGAIN") }()
	<-started
	if _, err := h.ag.ApplyTask(context.Background(), k.N); err != nil {
		close(release)
		<-done
		t.Fatalf("ApplyTask while a task runs: %v", err)
	}
	close(release)
	if te := end(t, <-done); te.Reason != agent.ReasonDone {
		t.Fatalf("the turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	reqs := h.srv.Requests()
	if sent := reqs[len(reqs)-1]; !strings.Contains(fmt.Sprint(sent.Messages), "The user applied the changes of the task") {
		t.Error("the model was not told of the apply in the running turn")
	}
	if !strings.Contains(fileText(t, filepath.Join(h.dir, "a.txt")), "<<<<<<< current") {
		t.Error("the apply wrote no markers")
	}
}

// TestApplyKeptTaskTwiceAtOnce: two applies of one task at once (the
// offer's a and /tasks apply): one applies, the other is refused; the
// file gets one set of markers.
func TestApplyKeptTaskTwiceAtOnce(t *testing.T) {
	h, k, _ := conflictingTasks(t, false)
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := h.ag.ApplyTask(context.Background(), k.N)
			errs <- err
		}()
	}
	e1, e2 := <-errs, <-errs
	if (e1 == nil) == (e2 == nil) {
		t.Fatalf("two applies at once: %v and %v; want one applied, one refused", e1, e2)
	}
	if got := fileText(t, filepath.Join(h.dir, "a.txt")); strings.Count(got, "<<<<<<< current") != 1 {
		t.Errorf("a.txt = %q, want one set of markers", got)
	}
}
