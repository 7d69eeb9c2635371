package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

const twoOpen = `{"goal":"G","items":[{"id":"1","text":"ALPHA","status":"completed"},{"id":"2","text":"BRAVO","status":"in_progress"},{"id":"3","text":"CHARLIE","status":"pending"}]}`

// noReminder turns the completion reminder off, for tests whose model
// ends its turn with items open on purpose.
func noReminder(c *agent.Config) { c.NoCompletionReminder = true }

func eventsOf[T agent.Event](evs []agent.Event) []T {
	var out []T
	for _, ev := range evs {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

func TestCompletionReminder(t *testing.T) {
	tests := []struct {
		name         string
		off          bool
		replies      []providertest.Reply
		wantRequests int
		wantReminded bool
		wantOpen     int // items in Unfinished; 0: no Unfinished
	}{
		{
			name:         "ends early twice",
			replies:      []providertest.Reply{calls(call("todo", twoOpen)), {Text: "All done!"}, {Text: "Really done."}},
			wantRequests: 3, wantReminded: true, wantOpen: 2,
		},
		{
			name: "finishes after the reminder",
			replies: []providertest.Reply{calls(call("todo", twoOpen)), {Text: "All done!"},
				calls(call("todo", `{"items":[{"id":"1","text":"ALPHA","status":"completed"},{"id":"2","text":"BRAVO","status":"completed"},{"id":"3","text":"CHARLIE","status":"cancelled","note":"not needed"}]}`)),
				{Text: "Now done."}},
			wantRequests: 4, wantReminded: true,
		},
		{
			name:         "switched off",
			off:          true,
			replies:      []providertest.Reply{calls(call("todo", twoOpen)), {Text: "All done!"}},
			wantRequests: 2, wantOpen: 2,
		},
		{
			name:         "no open items",
			replies:      []providertest.Reply{{Text: "hi"}},
			wantRequests: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, func(c *agent.Config) { c.NoCompletionReminder = tc.off })
			h.srv.Enqueue(tc.replies...)
			evs := h.run("do it")
			if te := end(t, evs); te.Reason != agent.ReasonDone {
				t.Fatalf("turn ended %s (%v)", te.Reason, te.Err)
			}
			h.checkValid()
			reqs := h.srv.Requests()
			if len(reqs) != tc.wantRequests {
				t.Fatalf("got %d requests, want %d", len(reqs), tc.wantRequests)
			}
			reminded := false
			for _, r := range reqs {
				if strings.Contains(r.LastUser(), "2 items are still open: #2 BRAVO, #3 CHARLIE") &&
					strings.Contains(r.LastUser(), "cancel them with a reason") {
					reminded = true
				}
			}
			if reminded != tc.wantReminded {
				t.Errorf("reminded = %v, want %v", reminded, tc.wantReminded)
			}
			un := eventsOf[agent.Unfinished](evs)
			switch {
			case tc.wantOpen == 0 && len(un) > 0:
				t.Errorf("got Unfinished %+v, want none", un)
			case tc.wantOpen > 0 && (len(un) != 1 || len(un[0].Items) != tc.wantOpen):
				t.Errorf("got Unfinished %+v, want one with %d items", un, tc.wantOpen)
			case tc.wantOpen > 0 && evs[len(evs)-2].Type() != "unfinished":
				t.Errorf("Unfinished is not right before TurnEnd: %T", evs[len(evs)-2])
			}
		})
	}
}

func TestPlanModeTools(t *testing.T) {
	h := newHarness(t) // ApproveAll: --yolo
	h.ag.SetMode(agent.ModePlan)
	h.srv.Enqueue(
		calls(call("write_file", `{"path":"x.txt","content":"no"}`)),
		calls(call("todo", `{"goal":"Fix it","items":[{"id":"1","text":"Read code","status":"pending"},{"id":"2","text":"Change code","status":"pending"}]}`)),
		providertest.Reply{Text: "Plan: read, then change."},
	)
	evs := h.run("plan a fix")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s (%v)", te.Reason, te.Err)
	}
	h.checkValid()
	reqs := h.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("got %d requests, want 3 (no completion reminder in plan mode)", len(reqs))
	}
	got := strings.Join(reqs[0].Tools, ",")
	if got != "bash,read_file,todo,task" {
		t.Errorf("plan mode offers %s, want bash,read_file,todo,task", got)
	}
	if !strings.Contains(reqs[0].Messages[0].Content, "PLAN MODE IS ON") {
		t.Error("the system prompt does not say plan mode is on")
	}
	ends := toolEnds(evs)
	if !ends[0].IsError || !strings.Contains(ends[0].Output, "Error: plan mode is on") {
		t.Errorf("write_file result = %q, want a plan-mode refusal", ends[0].Output)
	}
	props := eventsOf[agent.PlanProposed](evs)
	if len(props) != 1 || len(props[0].List.Items) != 2 || props[0].Changes != nil {
		t.Fatalf("proposals = %+v, want one with 2 items and no changes", props)
	}

	// A revision marks what changed against the previous proposal.
	h.srv.Enqueue(
		calls(call("todo", `{"goal":"Fix it","items":[{"id":"1","text":"Read the code","status":"pending"},{"id":"3","text":"Test","status":"pending"}]}`)),
		providertest.Reply{Text: "Revised."},
	)
	evs = h.run("no change step; add a test")
	props = eventsOf[agent.PlanProposed](evs)
	if len(props) != 1 {
		t.Fatalf("got %d proposals", len(props))
	}
	var kinds []string
	for _, c := range props[0].Changes {
		kinds = append(kinds, string(c.Kind)+" #"+c.ID)
	}
	if got := strings.Join(kinds, ", "); got != "removed #2, reworded #1, added #3" {
		t.Errorf("changes = %s", got)
	}

	// Approval returns to the mode before plan mode with the plan in the prompt.
	prompt, err := h.ag.ApprovePlan()
	if err != nil {
		t.Fatal(err)
	}
	if h.ag.Mode() != agent.ModeAuto || !strings.Contains(prompt, "#3: Test") {
		t.Errorf("mode %s, prompt %q", h.ag.Mode(), prompt)
	}
	h.srv.Enqueue(calls(call("write_file", `{"path":"x.txt","content":"yes"}`)), providertest.Reply{Text: "ok"})
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	evs = h.run(prompt)
	if ends := toolEnds(evs); len(ends) == 0 || ends[0].IsError {
		t.Errorf("after approval write_file failed: %+v", ends)
	}
	reqs = h.srv.Requests()
	if strings.Contains(reqs[len(reqs)-1].Messages[0].Content, "PLAN MODE") {
		t.Error("plan mode prompt still sent after approval")
	}
}

func TestPlanModeBashAsksEvenWithYolo(t *testing.T) {
	h := newHarness(t)
	h.ag.SetMode(agent.ModePlan)
	h.srv.Enqueue(calls(call("bash", `{"command":"ls"}`)), providertest.Reply{Text: "ok"})
	ch := h.ag.Run(context.Background(), "look")
	asked := 0
	var evs []agent.Event
	for ev := range ch {
		if r, ok := ev.(agent.ApprovalRequest); ok {
			asked++
			r.Reply <- agent.Approval{Always: true}
		}
		evs = append(evs, ev)
	}
	if asked != 1 {
		t.Fatalf("bash asked %d times, want 1", asked)
	}
	// "Always" does not stick in plan mode: the next call asks again.
	h.srv.Enqueue(calls(call("bash", `{"command":"ls"}`)), providertest.Reply{Text: "ok"})
	asked = 0
	for ev := range h.ag.Run(context.Background(), "again") {
		if r, ok := ev.(agent.ApprovalRequest); ok {
			asked++
			r.Reply <- agent.Approval{Allow: true}
		}
	}
	if asked != 1 {
		t.Fatalf("second bash asked %d times, want 1", asked)
	}
}

func TestUserEditsAreAuthoritative(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"ALPHA","status":"in_progress"},{"id":"2","text":"BRAVO","status":"pending"}]}`)), providertest.Reply{Text: "started"}, providertest.Reply{Text: "waiting for you"})
	h.run("start")
	steps := []agent.PlanEdit{
		{Op: agent.PlanAdd, ID: "1", Text: "ZULU verify"},
		{Op: agent.PlanCancel, ID: "2", Reason: "not needed"},
		{Op: agent.PlanText, ID: "1", Text: "ALPHA properly"},
	}
	var up agent.TodoUpdate
	for _, e := range steps {
		evs, err := h.ag.EditPlan(e)
		if err != nil {
			t.Fatal(err)
		}
		up = todoUpdate(t, evs)
	}
	if got := up.List.Render(); !strings.Contains(got, "#3: ZULU verify") || up.List.Items[1].ID != "3" || !strings.Contains(got, "[-] #2: BRAVO (cancelled: not needed)") {
		t.Fatalf("edited list:\n%s", got)
	}
	tries := []struct{ args, want string }{
		{`{"items":[{"id":"1","text":"ALPHA properly","status":"in_progress"},{"id":"2","text":"BRAVO","status":"cancelled","note":"x"}]}`, "#3 was added by the user"},
		{`{"items":[{"id":"1","text":"ALPHA properly","status":"in_progress"},{"id":"3","text":"ZULU verify","status":"pending"},{"id":"2","text":"BRAVO","status":"pending"}]}`, "#2 was cancelled by the user"},
		{`{"items":[{"id":"1","text":"ALPHA","status":"in_progress"},{"id":"3","text":"ZULU verify","status":"pending"},{"id":"2","text":"BRAVO","status":"cancelled","note":"x"}]}`, `keep it as "ALPHA properly"`},
	}
	for _, tr := range tries {
		h.srv.Enqueue(calls(call("todo", tr.args)))
	}
	h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"ALPHA properly","status":"completed"},{"id":"3","text":"ZULU verify","status":"completed"},{"id":"2","text":"BRAVO","status":"cancelled","note":"not needed"}]}`)), providertest.Reply{Text: "done"})
	evs := h.run("go on")
	h.checkValid()
	reqs := h.srv.Requests()
	first := reqs[len(reqs)-5]
	if !strings.Contains(first.LastUser(), "added #3 ZULU verify; cancelled #2: not needed") || !strings.Contains(first.LastUser(), "[ ] #3: ZULU verify") {
		t.Errorf("the edits did not reach the model with the next prompt:\n%s", first.LastUser())
	}
	ends := toolEnds(evs)
	if len(ends) != 4 {
		t.Fatalf("got %d tool results", len(ends))
	}
	for i, tr := range tries {
		if !ends[i].IsError || !strings.Contains(ends[i].Output, tr.want) || !strings.Contains(ends[i].Output, "unchanged") {
			t.Errorf("try %d: result %q, want an Error naming %q", i, ends[i].Output, tr.want)
		}
	}
	if ends[3].IsError {
		t.Errorf("a list keeping the edits was refused: %s", ends[3].Output)
	}
	if d, total := h.ag.Todos().Counts(); d != 2 || total != 2 {
		t.Errorf("final counts %d/%d", d, total)
	}
}

func TestEditPlanRejectsBadEdits(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"A","status":"completed"},{"id":"2","text":"B","status":"pending"}]}`)), providertest.Reply{Text: "x"}, providertest.Reply{Text: "x"})
	h.run("start")
	bad := []agent.PlanEdit{
		{Op: agent.PlanDrop, ID: "1"},
		{Op: agent.PlanCancel, ID: "2"},
		{Op: agent.PlanText, ID: "9", Text: "x"},
		{Op: agent.PlanAdd, Text: "  "},
	}
	for _, e := range bad {
		if _, err := h.ag.EditPlan(e); err == nil {
			t.Errorf("%+v accepted", e)
		}
	}
	evs, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanMove, ID: "2", To: 1})
	if err != nil {
		t.Fatalf("move: %v", err)
	}
	if up := todoUpdate(t, evs); up.List.Items[0].ID != "2" {
		t.Fatalf("move: %+v", up.List)
	}
	for i := 0; i < todo.MaxItems-2; i++ {
		if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "more"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "too many"}); err == nil {
		t.Error("a 21st item was accepted")
	}
}

func TestGatePausesAfterItem(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"A","status":"pending"},{"id":"2","text":"B","status":"pending"}]}`)), providertest.Reply{Text: "planned"}, providertest.Reply{Text: "planned"})
	h.run("plan")
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanStopAfter, ID: "1"}); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"A","status":"completed"},{"id":"2","text":"B","status":"in_progress"}]}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"A","status":"completed"},{"id":"2","text":"B","status":"completed"}]}`)),
		providertest.Reply{Text: "done"},
	)
	ch := h.ag.Run(context.Background(), "go")
	var evs []agent.Event
	paused := false
	for ev := range ch {
		evs = append(evs, ev)
		if p, ok := ev.(agent.Paused); ok {
			paused = true
			if p.After != "1" || !strings.Contains(p.Text, "paused after #1") {
				t.Errorf("paused = %+v", p)
			}
			n := len(h.srv.Requests())
			time.Sleep(50 * time.Millisecond) // nothing may happen while paused
			if got := len(h.srv.Requests()); got != n {
				t.Errorf("a model call was made while paused (%d -> %d)", n, got)
			}
			h.ag.Continue()
		}
	}
	if !paused {
		t.Fatal("the turn never paused")
	}
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s", te.Reason)
	}
}

func TestGateInterruptAndSteer(t *testing.T) {
	for _, steer := range []bool{false, true} {
		h := newHarness(t)
		h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"A","status":"pending"}]}`)), providertest.Reply{Text: "x"}, providertest.Reply{Text: "x"})
		h.run("plan")
		h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanStopAfter, ID: "1"})
		h.srv.Enqueue(calls(call("todo", `{"items":[{"id":"1","text":"A","status":"completed"}]}`)), providertest.Reply{Text: "done"})
		ctx, cancel := context.WithCancel(context.Background())
		var evs []agent.Event
		for ev := range h.ag.Run(ctx, "go") {
			evs = append(evs, ev)
			if _, ok := ev.(agent.Paused); ok {
				if steer {
					h.ag.Steer("also check B")
				} else {
					cancel()
				}
			}
		}
		cancel()
		te := end(t, evs)
		if steer {
			if te.Reason != agent.ReasonDone || len(eventsOf[agent.SteerDelivered](evs)) != 1 {
				t.Errorf("steer at a gate: %s, %d delivered", te.Reason, len(eventsOf[agent.SteerDelivered](evs)))
			}
		} else if te.Reason != agent.ReasonInterrupted {
			t.Errorf("interrupt at a gate ended %s", te.Reason)
		}
	}
}

func TestPlanModeSubagentReadOnly(t *testing.T) {
	h := newHarness(t)
	h.ag.SetMode(agent.ModePlan)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		child := !strings.Contains(strings.Join(r.Tools, ","), "task")
		switch {
		case child && len(r.Messages) == 2:
			return calls(call("write_file", `{"path":"x.txt","content":"no"}`))
		case child:
			return providertest.Reply{Text: "child done"}
		case len(r.Messages) == 2:
			return calls(call("task", `{"description":"look","prompt":"look around"}`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	h.run("plan")
	h.checkValid()
	children := 0
	for _, r := range h.srv.Requests() {
		if !strings.Contains(strings.Join(r.Tools, ","), "task") {
			children++
			if got := strings.Join(r.Tools, ","); got != "bash,read_file" {
				t.Errorf("the subagent in plan mode has %s, want bash,read_file", got)
			}
			for _, m := range r.Messages {
				if m.Role == "tool" && !strings.Contains(m.Content, "Error: plan mode is on") {
					t.Errorf("the subagent's write got %q", m.Content)
				}
			}
		}
	}
	if children != 2 {
		t.Errorf("%d subagent requests, want 2", children)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "x.txt")); err == nil {
		t.Error("the subagent wrote a file in plan mode")
	}
}

// todoUpdate returns the one event of evs, which must be a TodoUpdate: the
// events of an edit that was saved.
func todoUpdate(t *testing.T, evs []agent.Event) agent.TodoUpdate {
	t.Helper()
	if len(evs) != 1 {
		t.Fatalf("events %+v, want one TodoUpdate", evs)
	}
	up, ok := evs[0].(agent.TodoUpdate)
	if !ok {
		t.Fatalf("event %T, want a TodoUpdate", evs[0])
	}
	return up
}
