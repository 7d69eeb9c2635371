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

const threeItems = `{"items":[{"id":"1","text":"A","status":"pending"},{"id":"2","text":"B","status":"pending"},{"id":"3","text":"C","status":"pending"}]}`

// planServer answers the parent by the number of tool results it has
// seen: a plan, then steps[0], steps[1], ..., then "parent done"; a
// subagent "CHILD n" answers "report n" once three were open at once.
func planServer(h *harness, steps ...providertest.Reply) {
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if n, ok := strings.CutPrefix(r.Messages[1].Content, "CHILD "); ok {
			h.srv.WaitOpen(3, 5*time.Second)
			return providertest.Reply{Text: "report " + n + "\nsecond line"}
		}
		answers := 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				answers++
			}
		}
		switch {
		case answers == 0:
			return calls(call("todo", threeItems))
		case answers-1 < len(steps):
			return steps[answers-1]
		}
		return providertest.Reply{Text: "parent done"}
	})
}

func TestTaskItemGoesInProgressAndGetsTheResult(t *testing.T) {
	h := newHarness(t)
	planServer(h,
		calls(taskCall(1, `,"item":"1"`), taskCall(2, `,"item":"#2"`), taskCall(3, `,"item":"3"`)),
		// The model completes one item; the tasks' two others stay in
		// progress, which the one-in-progress rule allows for task-owned
		// items.
		calls(call("todo", `{"items":[{"id":"1","text":"A","status":"completed","note":"done"},{"id":"2","text":"B","status":"in_progress"},{"id":"3","text":"C","status":"in_progress"}]}`)),
	)
	evs := h.run("PARENT: plan and split")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	var peak int
	for _, ev := range evs {
		if up, ok := ev.(agent.TodoUpdate); ok {
			running := 0
			for _, it := range up.List.Items {
				if it.Status == todo.InProgress {
					running++
				}
			}
			peak = max(peak, running)
		}
	}
	if peak != 3 {
		t.Errorf("at most %d items were in progress at once, want 3 (one per running task)", peak)
	}
	for _, te := range toolEnds(evs) {
		if te.Name == "todo" && te.IsError {
			t.Errorf("the model's todo call was refused: %s", te.Output)
		}
	}
	list := h.ag.Todos()
	want := map[string][2]string{"1": {"completed", "done"}, "2": {"in_progress", "report 2"}, "3": {"in_progress", "report 3"}}
	for _, it := range list.Items {
		if w := want[it.ID]; string(it.Status) != w[0] || it.Note != w[1] {
			t.Errorf("item #%s = %s %q, want %s %q", it.ID, it.Status, it.Note, w[0], w[1])
		}
	}
}

func TestTaskItemMustExist(t *testing.T) {
	tests := []struct {
		name, item, want string
	}{
		{"unknown", "9", `no such item (it has #1, #2, #3)`},
		{"completed", "1", "plan item #1 is completed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			planServer(h,
				calls(call("todo", strings.Replace(threeItems, `"pending"`, `"completed","note":"x"`, 1))),
				calls(taskCall(1, `,"item":"`+tc.item+`"`)),
			)
			evs := h.run("PARENT")
			end(t, evs)
			h.checkValid()
			var out string
			for _, te := range toolEnds(evs) {
				if te.Name == "task" {
					out = te.Output
				}
			}
			if !strings.HasPrefix(out, "Error:") || !strings.Contains(out, tc.want) {
				t.Errorf("task result = %q, want an error saying %q", out, tc.want)
			}
			for _, r := range h.srv.Requests() {
				if strings.HasPrefix(r.Messages[1].Content, "CHILD") {
					t.Error("the subagent started for a refused item")
				}
			}
		})
	}
}

// runUntil runs a turn, calling act with the turn's cancel func once the
// server has seen n requests open at once, and returns every event.
func runUntil(t *testing.T, h *harness, n int, act func(cancel context.CancelFunc, starts []agent.ToolStart)) []agent.Event {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := h.ag.Run(ctx, "PARENT: split")
	var evs []agent.Event
	var starts []agent.ToolStart
	acted := false
	for ev := range ch {
		evs = append(evs, ev)
		if s, ok := ev.(agent.ToolStart); ok && s.Name == "task" {
			starts = append(starts, s)
		}
		if !acted && len(starts) == n && h.srv.WaitOpen(n, 5*time.Second) {
			acted = true
			act(cancel, starts)
		}
	}
	if !acted {
		t.Fatalf("the server never saw %d requests at once", n)
	}
	return evs
}

func TestStopOneTask(t *testing.T) {
	h := newHarness(t)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		switch n, ok := strings.CutPrefix(r.Messages[1].Content, "CHILD "); {
		case ok && n == "2":
			return providertest.Reply{Text: "halfway there", Hang: true}
		case ok:
			h.srv.WaitOpen(3, 5*time.Second)
			return providertest.Reply{Text: "report " + n}
		case r.Last().Role == "user":
			return calls(taskCall(1, ""), taskCall(2, ""), taskCall(3, ""))
		}
		return providertest.Reply{Text: "parent done"}
	})
	evs := runUntil(t, h, 3, func(_ context.CancelFunc, starts []agent.ToolStart) {
		for _, s := range starts {
			if strings.Contains(s.Args, "CHILD 2") && !h.ag.StopTask(s.ID) {
				t.Error("StopTask found no running task")
			}
		}
	})
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v; stopping one task must not end the turn", te.Reason, te.Err)
	}
	h.checkValid()
	res := toolResults(h)
	if len(res) != 3 || res[0].Content != "report 1" || res[2].Content != "report 3" {
		t.Fatalf("results = %q, want the two other tasks' reports", res)
	}
	if !strings.HasPrefix(res[1].Content, "Error:") || !strings.Contains(res[1].Content, "stopped by the user") {
		t.Errorf("stopped task's result = %q, want an error saying it was stopped by the user", res[1].Content)
	}
	if h.ag.StopTask("no-such-call") {
		t.Error("StopTask reported an unknown call as running")
	}
	noLoopGoroutines(t)
}

func TestInterruptStopsEveryTask(t *testing.T) {
	h := newHarness(t)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		switch {
		case strings.HasPrefix(r.Messages[1].Content, "CHILD "):
			return providertest.Reply{Text: "working", Hang: true}
		case r.LastUser() == "PARENT: again":
			return providertest.Reply{Text: "fine"}
		case r.Last().Role == "user":
			return calls(taskCall(1, ""), taskCall(2, ""), taskCall(3, ""))
		}
		return providertest.Reply{Text: "parent done"}
	})
	evs := runUntil(t, h, 3, func(cancel context.CancelFunc, _ []agent.ToolStart) { cancel() })
	if te := end(t, evs); te.Reason != agent.ReasonInterrupted {
		t.Fatalf("turn ended %s, want interrupted", te.Reason)
	}
	if got := len(toolEnds(evs)); got != 3 {
		t.Errorf("%d tool ends, want one per started task", got)
	}
	noLoopGoroutines(t)
	h.run("PARENT: again") // the repaired history is a valid request
	h.checkValid()
}

// TestTaskTranscriptsSaved: the session keeps each task's transcript, and
// the replay of a resumed session shows each task's work under its call.
func TestTaskTranscriptsSaved(t *testing.T) {
	sessions := t.TempDir()
	var rec *session.Recorder
	h := newHarness(t, func(c *agent.Config) {
		rec = session.NewRecorder(sessions, c.Workspace, "test-model")
		c.Recorder = rec
	})
	planServer(h, calls(taskCall(1, `,"item":"1"`), taskCall(2, `,"item":"2"`), taskCall(3, `,"item":"3"`)))
	evs := h.run("PARENT: plan and split")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	info, err := session.Find(sessions, h.dir, rec.ID())
	if err != nil {
		t.Fatal(err)
	}
	ld, err := session.Load(info.Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Tasks) != 3 {
		t.Fatalf("the session kept %d task transcripts, want 3", len(ld.Tasks))
	}
	replay := agent.ReplayTasks(agent.Replay(ld.History), ld.Tasks)
	under := map[string]string{} // task call id -> its subagent's final answer
	var starts []agent.ToolStart
	for _, ev := range replay {
		switch e := ev.(type) {
		case agent.ToolStart:
			if e.Name == "task" {
				starts = append(starts, e)
			}
		case agent.Subagent:
			if d, ok := e.Event.(agent.AssistantDone); ok {
				under[e.ParentID] = d.Text
			}
		}
	}
	if len(starts) != 3 {
		t.Fatalf("replay has %d task calls, want 3", len(starts))
	}
	for _, s := range starts {
		if want := "report " + s.Item + "\nsecond line"; under[s.ID] != want {
			t.Errorf("replayed task on #%s shows %q, want its subagent's answer %q", s.Item, under[s.ID], want)
		}
	}
}

// TestTaskApprovalsNameTheirTask: approval requests of tasks running side
// by side each carry their task's call id, and each waits for its own
// answer.
func TestTaskApprovalsNameTheirTask(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk })
	h.ag.SetMode(agent.ModeAsk) // every change asks
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		n, isChild := strings.CutPrefix(r.Messages[1].Content, "CHILD ")
		switch {
		case isChild && r.Last().Role == "user":
			return calls(call("write_file", `{"path":"f`+n+`.txt","content":"x"}`))
		case isChild:
			return providertest.Reply{Text: "report " + n}
		case r.Last().Role == "user":
			return calls(taskCall(1, ""), taskCall(2, ""))
		}
		return providertest.Reply{Text: "parent done"}
	})
	tasks := map[string]bool{}
	asked := map[string]bool{}
	for ev := range h.ag.Run(context.Background(), "PARENT") {
		switch e := ev.(type) {
		case agent.ToolStart:
			if e.Name == "task" {
				tasks[e.ID] = true
			}
		case agent.ApprovalRequest:
			if !tasks[e.Task] {
				t.Errorf("approval request %s names task %q, not a running task call", e.ID, e.Task)
			}
			asked[e.Task] = true
			e.Reply <- agent.Approval{Allow: true}
		}
	}
	h.checkValid()
	if len(asked) != 2 {
		t.Errorf("approval requests came from %d tasks, want 2", len(asked))
	}
}
