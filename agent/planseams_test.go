package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// The seam of parallel tasks and the user's plan edits (issue 29 §3: the
// plan has its own lock): three tasks start, note and hold their items
// while the user adds, rewords and gates items of the same plan. Under
// -race nothing races; each task's item gets its report; the user's items
// are all there as the user wrote them; the model's list that drops them
// is refused; the model is told of the edits; no TodoUpdate goes back in
// revision.
func TestSeamParallelTasksWhileUserEditsPlan(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t)
	edited := make(chan struct{}) // the subagents answer once the user added items
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if n, ok := strings.CutPrefix(r.Messages[1].Content, "CHILD "); ok {
			h.srv.WaitOpen(3, 5*time.Second)
			select {
			case <-edited:
			case <-time.After(10 * time.Second):
				t.Error("the user's edits never came")
			}
			return providertest.Reply{Text: "report " + n}
		}
		switch answersOf(r) {
		case 0:
			return calls(call("todo", threeItems))
		case 1:
			return calls(taskCall(1, `,"item":"1"`), taskCall(2, `,"item":"2"`), taskCall(3, `,"item":"3"`))
		case 2: // the model's own list, without the user's items
			return calls(call("todo", `{"items":[{"id":"1","text":"A","status":"completed"},{"id":"2","text":"B","status":"completed"},{"id":"3","text":"C","status":"completed"}]}`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		evs  []agent.Event
		user = map[string]string{} // the user's items: id -> text
	)
	record := func(pev []agent.Event) {
		mu.Lock()
		defer mu.Unlock()
		evs = append(evs, pev...)
	}
	stop := make(chan struct{})
	userEdits := func() {
		defer wg.Done()
		for n := range 5 {
			pev, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: fmt.Sprint("user item ", n)})
			if err != nil {
				t.Error(err)
				return
			}
			record(pev)
			l := pev[0].(agent.TodoUpdate).List
			it := l.Items[len(l.Items)-1]
			user[it.ID] = it.Text
		}
		close(edited)
		for n := 0; ; n++ { // while the tasks end and note their items
			select {
			case <-stop:
				return
			default:
			}
			for id := range user {
				text := fmt.Sprintf("user item #%s, take %d", id, n)
				pev, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanText, ID: id, Text: text})
				if err != nil {
					t.Error(err)
					return
				}
				record(pev)
				user[id] = text
				h.ag.Todos()
				h.ag.Mode()
			}
			time.Sleep(time.Millisecond)
		}
	}
	started := false
	for ev := range h.ag.Run(context.Background(), "PARENT: plan and split") {
		record([]agent.Event{ev})
		if s, ok := ev.(agent.ToolStart); ok && s.Name == agent.TaskTool && !started {
			started = true
			wg.Add(1)
			go userEdits()
		}
	}
	close(stop)
	wg.Wait()
	if !started {
		t.Fatal("no task started")
	}
	if te := end(t, turnEvents(evs)); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	list := h.ag.Todos()
	for id, want := range user {
		if i := list.Find(id); i < 0 || list.Items[i].Text != want {
			t.Errorf("the user's item #%s %q is not in the plan as the user wrote it: %+v", id, want, list.Items)
		}
	}
	for _, id := range []string{"1", "2", "3"} {
		if it := list.Items[list.Find(id)]; it.Note != "report "+id {
			t.Errorf("task item #%s = %s %q, want its task's report", id, it.Status, it.Note)
		}
	}
	refused := false
	for _, te := range toolEnds(evs) {
		refused = refused || (te.Name == "todo" && te.IsError && strings.Contains(te.Output, "was added by the user"))
	}
	if !refused {
		t.Error("the model's list without the user's items was not refused")
	}
	if !strings.Contains(allRequests(h), "The user edited the plan: added #4 user item 0") {
		t.Error("the model was not told of the user's edits")
	}
	noLoopGoroutines(t)
}

// turnEvents returns the events of evs but the ones EditPlan returned
// after the turn's end (the goroutine editing may record after it).
func turnEvents(evs []agent.Event) []agent.Event {
	for i, ev := range evs {
		if _, ok := ev.(agent.TurnEnd); ok {
			return evs[:i+1]
		}
	}
	return evs
}

// allRequests is every message content the fake server was sent.
func allRequests(h *harness) string {
	var b strings.Builder
	for _, r := range h.srv.Requests() {
		for _, m := range r.Messages {
			b.WriteString(m.Content + "\n")
		}
	}
	return b.String()
}

// The seam of an open approval and a plan edit: while the parent's write
// waits for the user's answer, the user adds an item and rewords another.
// The edit lands at once (its TodoUpdate newer than the turn's), the
// write runs once allowed, the model reads the edit after the write's
// result, before its next call, and its next list, which drops the
// user's item, is refused.
func TestSeamPlanEditWhileApprovalWaits(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk })
	h.ag.SetMode(agent.ModeAsk)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		switch answersOf(r) {
		case 0:
			return calls(call("todo", strings.Replace(threeItems, "pending", "in_progress", 1)))
		case 1:
			return calls(call("write_file", `{"path":"a.txt","content":"a\n"}`))
		case 2:
			return calls(call("todo", `{"items":[{"id":"1","text":"A","status":"completed"},{"id":"2","text":"B","status":"in_progress"},{"id":"3","text":"C","status":"pending"}]}`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	var evs []agent.Event
	var editRev, lastRev int
	asked := 0
	for ev := range h.ag.Run(context.Background(), "PARENT: plan") {
		evs = append(evs, ev)
		if up, ok := ev.(agent.TodoUpdate); ok {
			lastRev = up.Rev
		}
		req, ok := ev.(agent.ApprovalRequest)
		if !ok {
			continue
		}
		if req.Tool == "write_file" {
			asked++
			for _, e := range []agent.PlanEdit{{Op: agent.PlanAdd, Text: "Write docs"}, {Op: agent.PlanText, ID: "3", Text: "C, carefully"}} {
				pev, err := h.ag.EditPlan(e)
				if err != nil {
					t.Fatal(err)
				}
				up := pev[0].(agent.TodoUpdate)
				if up.Rev <= lastRev {
					t.Errorf("the edit's revision %d is not newer than the turn's %d", up.Rev, lastRev)
				}
				editRev, lastRev = up.Rev, up.Rev
			}
		}
		req.Reply <- agent.Approval{Allow: true}
	}
	if asked != 1 {
		t.Fatalf("the write asked %d times", asked)
	}
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if b, err := os.ReadFile(filepath.Join(h.dir, "a.txt")); err != nil || string(b) != "a\n" {
		t.Errorf("the allowed write: %q, %v", b, err)
	}
	reqs := h.srv.Requests()
	third := reqs[2].Messages // the request after the write's result
	last := third[len(third)-1]
	if last.Role != "user" || !strings.Contains(last.Content, "added #4 Write docs") || !strings.Contains(last.Content, `reworded #3 to "C, carefully"`) {
		t.Errorf("the request after the write ends with %s %q, want the user's edits", last.Role, last.Content)
	}
	if prev := third[len(third)-2]; prev.Role != "tool" {
		t.Errorf("the edits came before the write's result (%s)", prev.Role)
	}
	ends := toolEnds(evs)
	if te := ends[len(ends)-1]; te.Name != "todo" || !te.IsError || !strings.Contains(te.Output, "#4 was added by the user") {
		t.Errorf("the model's list without the user's item: %+v", te)
	}
	list := h.ag.Todos()
	if i := list.Find("4"); i < 0 || list.Items[i].Text != "Write docs" || list.Items[list.Find("3")].Text != "C, carefully" {
		t.Errorf("the plan after the turn: %+v", list.Items)
	}
	if editRev == 0 {
		t.Error("no edit was made")
	}
}
