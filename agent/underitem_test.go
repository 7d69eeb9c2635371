package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// toolOutputs returns the output of each ToolEnd of name.
func toolOutputs(evs []agent.Event, name string) []string {
	var out []string
	for _, ev := range evs {
		if e, ok := ev.(agent.ToolEnd); ok && e.Name == name {
			out = append(out, e.Output)
		}
	}
	return out
}

// TestRejectedTodoRefusesChanges: after a refused todo call, a change is
// refused too, quoting why, and nothing is written.
func TestRejectedTodoRefusesChanges(t *testing.T) {
	h := newHarness(t, noReminder)
	h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"pending"}]}`)), providertest.Reply{Text: "planned"})
	h.run("plan")
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "Add tests"}); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"in_progress"}]}`)), // drops the user's #2
		calls(call("write_file", `{"path":"a.txt","content":"x\n"}`)),
		providertest.Reply{Text: "stopped"})
	evs := h.run("go")
	h.checkValid()
	out := toolOutputs(evs, "write_file")
	if len(out) != 1 || !strings.HasPrefix(out[0], "Error: your last todo call was refused") || !strings.Contains(out[0], "added by the user") {
		t.Fatalf("write_file after a refused todo call = %q", out)
	}
	if readFile(t, h.dir, "a.txt") != "<missing>" {
		t.Error("the refused change was written")
	}
}

// TestChangeStartsNextItem: a change with a plan but no item in progress
// marks the next pending item in progress, says so, and makes its undo
// point first.
func TestChangeStartsNextItem(t *testing.T) {
	h := newHarness(t, withStore(t), noReminder)
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"Write a","status":"pending"},{"id":"2","text":"Test","status":"pending"}]}`)),
		calls(call("write_file", `{"path":"a.txt","content":"x\n"}`)),
		providertest.Reply{Text: "done"})
	evs := h.run("write a")
	h.checkValid()
	out := toolOutputs(evs, "write_file")
	if len(out) != 1 || !strings.Contains(out[0], `tick marked #1 "Write a" in_progress`) {
		t.Fatalf("write_file result = %q", out)
	}
	var started *agent.ItemStarted
	for _, ev := range evs {
		if e, ok := ev.(agent.ItemStarted); ok {
			started = &e
		}
	}
	if started == nil || started.ID != "1" || !started.Auto {
		t.Errorf("ItemStarted = %+v", started)
	}
	if it := h.ag.Todos().Items[0]; it.Status != todo.InProgress {
		t.Errorf("#1 is %s", it.Status)
	}
	if _, _, err := h.ag.Undo(context.Background(), "1"); err != nil {
		t.Fatal(err)
	}
	if readFile(t, h.dir, "a.txt") != "<missing>" {
		t.Error("undo of the automatically started item left a.txt")
	}
}

// walkPastGate plans #1 "Design" and #2 "Build" with a gate after #1,
// then queues a turn whose model starts #2 and writes b.txt, ending with
// reply.
func walkPastGate(t *testing.T, reply string) *harness {
	t.Helper()
	h := newHarness(t, noReminder)
	h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"Design","status":"pending"},{"id":"2","text":"Build","status":"pending"}]}`)), providertest.Reply{Text: "planned"})
	h.run("plan")
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanStopAfter, ID: "1"}); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"Design","status":"pending"},{"id":"2","text":"Build","status":"in_progress"}]}`)),
		calls(call("write_file", `{"path":"b.txt","content":"x\n"}`)),
		providertest.Reply{Text: reply})
	return h
}

// TestGateHoldsWhenModelMovesOn: a change under an item after an open
// gate pauses the turn, with the next item waiting.
func TestGateHoldsWhenModelMovesOn(t *testing.T) {
	h := walkPastGate(t, "built")
	var paused *agent.Paused
	waiting := ""
	for ev := range h.ag.Run(context.Background(), "go") {
		switch e := ev.(type) {
		case agent.TodoUpdate:
			if e.Waiting != "" {
				waiting = e.Waiting
			}
		case agent.Paused:
			paused = &e
			if readFile(t, h.dir, "b.txt") != "<missing>" {
				t.Error("the change ran before the pause")
			}
			h.ag.Continue()
		}
	}
	h.checkValid()
	if paused == nil || paused.After != "1" || paused.Next != "2" || waiting != "2" {
		t.Fatalf("paused = %+v, waiting %q", paused, waiting)
	}
	if readFile(t, h.dir, "b.txt") != "x\n" {
		t.Error("the change did not run after Continue")
	}
}

// TestNoStaleReminder: a turn that ended with open items does not push two
// later unrelated prompts back into the plan: one request each and no
// reminder.
func TestNoStaleReminder(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"in_progress"},{"id":"2","text":"Test","status":"pending"}]}`)),
		providertest.Reply{Text: "stopping here"}, providertest.Reply{Text: "still stopping"})
	h.run("start the work")
	if n := len(h.srv.Requests()); n != 3 {
		t.Fatalf("the turn that worked on the plan made %d requests, want 3 (with the reminder)", n)
	}
	h.srv.Enqueue(providertest.Reply{Text: "4"}, providertest.Reply{Text: "Paris"})
	h.run("what is 2+2?")
	h.run("capital of France?")
	reqs := h.srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5: unrelated prompts got extra model calls", len(reqs))
	}
	for _, r := range reqs[3:] {
		if strings.Contains(dump(r.Messages[len(r.Messages)-1:]), "still open") {
			t.Error("an unrelated prompt was sent with the open-items reminder")
		}
	}
}

// TestClearPlanAndNewGoal: /plan clear puts the plan aside; a todo call
// with a new goal replaces an open plan, the user's edits included.
func TestClearPlanAndNewGoal(t *testing.T) {
	h := newHarness(t)
	if _, err := h.ag.ClearPlan(); !errors.Is(err, agent.ErrNoPlan) {
		t.Errorf("clear with no plan: %v", err)
	}
	h.srv.Enqueue(calls(call("todo", `{"goal":"Old","items":[{"id":"1","text":"Old step","status":"in_progress"}]}`)), providertest.Reply{Text: "later"})
	h.run("old work")
	h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "User step"})
	h.srv.Enqueue(calls(call("todo", `{"goal":"New","items":[{"id":"1","text":"New step","status":"in_progress"}]}`)), providertest.Reply{Text: "ok"})
	evs := h.run("new work")
	if got := h.ag.Todos(); got.Goal != "New" || len(got.Items) != 1 {
		t.Fatalf("a todo call with a new goal did not replace the plan: %+v (%v)", got, toolOutputs(evs, "todo"))
	}
	if ar := h.ag.Archived(); len(ar) != 1 || ar[0].Goal != "Old" || !ar[0].Archived {
		t.Errorf("archived = %+v", ar)
	}
	evs, err := h.ag.ClearPlan()
	if up, ok := evs[0].(agent.TodoUpdate); err != nil || !ok || !up.List.Empty() || !h.ag.Todos().Empty() || len(h.ag.Archived()) != 2 {
		t.Fatalf("clear: %+v, %v", evs, err)
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	h.run("hello")
	reqs := h.srv.Requests()
	if sent := dump(reqs[len(reqs)-1].Messages); !strings.Contains(sent, "put the plan aside") {
		t.Errorf("the model was not told the plan was put aside:\n%s", sent)
	}
}

// TestEmptyAnswer: no text and no tool call ends the turn as an error of
// its own kind, which -p turns into a non-zero exit.
func TestEmptyAnswer(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(providertest.Reply{})
	evs := h.run("hi")
	end, _ := evs[len(evs)-1].(agent.TurnEnd)
	if end.Reason != agent.ReasonError || end.Kind != agent.KindEmptyAnswer || end.Error != "the model returned an empty answer" {
		t.Fatalf("turn end = %+v", end)
	}
	if !h.ag.CanRetry() {
		t.Error("an empty answer cannot be retried")
	}
}

// TestGateWalkedPastSteered: a message sent while paused at a gate the
// model walked past refuses the held change, so the model reads it first.
func TestGateWalkedPastSteered(t *testing.T) {
	h := walkPastGate(t, "ok, designing first")
	var evs []agent.Event
	for ev := range h.ag.Run(context.Background(), "go") {
		evs = append(evs, ev)
		if _, ok := ev.(agent.Paused); ok {
			if _, ok := h.ag.Steer("do the design first"); !ok {
				t.Fatal("steer refused while paused")
			}
		}
	}
	h.checkValid()
	out := toolOutputs(evs, "write_file")
	if len(out) != 1 || !strings.HasPrefix(out[0], "Error: the user asked to stop after #1") {
		t.Fatalf("write_file = %q", out)
	}
	if readFile(t, h.dir, "b.txt") != "<missing>" {
		t.Error("the held change ran after the user's message")
	}
	reqs := h.srv.Requests()
	if got := dump(reqs[len(reqs)-1].Messages); !strings.Contains(got, "do the design first") {
		t.Errorf("the message did not reach the model:\n%s", got)
	}
}

// TestOldPlanDoesNotClaimChanges: a plan left open by an earlier turn is
// not started by a later request's change, nor reminded of.
func TestOldPlanDoesNotClaimChanges(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"Refactor","status":"pending"}]}`)),
		providertest.Reply{Text: "planned"}, providertest.Reply{Text: "waiting for you"})
	h.run("plan a refactor")
	n := len(h.srv.Requests())
	h.srv.Enqueue(calls(call("write_file", `{"path":"notes.txt","content":"x\n"}`)), providertest.Reply{Text: "noted"})
	evs := h.run("write notes.txt")
	h.checkValid()
	if out := toolOutputs(evs, "write_file"); len(out) != 1 || strings.Contains(out[0], "tick marked") {
		t.Errorf("write_file = %q", out)
	}
	if it := h.ag.Todos().Items[0]; it.Status != todo.Pending {
		t.Errorf("the old plan's item was started: %+v", it)
	}
	if got := len(h.srv.Requests()) - n; got != 2 {
		t.Errorf("%d requests for the unrelated request, want 2 (no reminder)", got)
	}
}
