package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/compact"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// answersOf counts the assistant messages of a request.
func answersOf(r providertest.Request) int {
	n := 0
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	return n
}

// hangingItemTask is a server whose parent plans three items, then sends
// one task on #2 (prompt "CHILD 2"), then is done; the subagent writes
// drop.sql in its copy and then hangs until it is stopped.
func hangingItemTask(h *harness) {
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			if answersOf(r) == 0 {
				return calls(call("write_file", `{"path":"drop.sql","content":"DROP TABLE users;"}`))
			}
			return providertest.Reply{Text: "dropping the table", Hang: true}
		}
		switch answersOf(r) {
		case 0:
			return calls(call("todo", threeItems))
		case 1:
			return calls(taskCall(2, `,"item":"2"`))
		}
		return providertest.Reply{Text: "parent done"}
	})
}

// Issue 31 §1: cancelling an item stops its task at once, applies none of
// its changes (its copy is kept and named) and the reason stays the
// user's, in the list and in what the model reads.
func TestCancelItemStopsItsTask(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t)
	hangingItemTask(h)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var evs []agent.Event
	edited := false
	for ev := range h.ag.Run(ctx, "PARENT: plan") {
		evs = append(evs, ev)
		if sub, ok := ev.(agent.Subagent); ok && !edited && isToolEnd(sub.Event) && h.srv.WaitOpen(1, 5*time.Second) {
			edited = true
			pev, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanCancel, ID: "2", Reason: "never drop tables"})
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, pev...)
		}
	}
	if !edited {
		t.Fatal("the task never reached its hanging call")
	}
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if _, err := os.Stat(filepath.Join(h.dir, "drop.sql")); err == nil {
		t.Error("the cancelled task's change was applied to the workspace")
	}
	list := h.ag.Todos()
	if it := list.Items[list.Find("2")]; it.Status != todo.Cancelled || it.Note != "never drop tables" {
		t.Errorf("item #2 = %s %q, want cancelled with the user's reason", it.Status, it.Note)
	}
	res := toolResults(h)
	if len(res) == 0 || !strings.Contains(res[len(res)-1].Content, "never drop tables") || !strings.Contains(res[len(res)-1].Content, "not applied") {
		t.Fatalf("the model was told %q, want the user's reason and that nothing was applied", res)
	}
	var notice string
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, "discarded") {
			notice = n.Text
		}
	}
	kept := regexpKept.FindStringSubmatch(notice)
	if kept == nil {
		t.Fatalf("no notice names the kept copy: %v", evs)
	}
	if b, err := os.ReadFile(filepath.Join(kept[1], "drop.sql")); err != nil || string(b) != "DROP TABLE users;" {
		t.Errorf("the kept copy %s lacks the task's change: %q, %v", kept[1], b, err)
	}
	noLoopGoroutines(t)
}

// isToolEnd reports whether ev is a ToolEnd.
func isToolEnd(ev agent.Event) bool {
	_, ok := ev.(agent.ToolEnd)
	return ok
}

// regexpKept finds the kept copy a notice names.
var regexpKept = regexp.MustCompile(`kept at (\S+?)(?:[;.( ]|$)`)

// Issue 31 §4: --max-turns counts the subagents' model calls too: three
// tasks that would make four calls each stop when the turn's two calls
// are used, and the turn ends on its budget (exit 6 in -p).
func TestMaxTurnsCountsSubagentCalls(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) { c.MaxRounds = 2 })
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			if answersOf(r) < 4 {
				return calls(call("bash", `{"command":"echo step"}`))
			}
			return providertest.Reply{Text: "child done"}
		}
		if r.Last().Role == "user" {
			return calls(taskCall(1, ""), taskCall(2, ""), taskCall(3, ""))
		}
		return providertest.Reply{Text: "parent done"}
	})
	evs := h.run("PARENT: three tasks")
	te := end(t, evs)
	if n := len(h.srv.Requests()); n > 2 {
		t.Errorf("the turn made %d model calls with --max-turns 2", n)
	}
	if te.Reason != agent.ReasonError || te.Kind != agent.KindRoundCap {
		t.Fatalf("turn ended %s (%s): %v; want the --max-turns budget", te.Reason, te.Kind, te.Err)
	}
	h.checkValid()
	noLoopGoroutines(t)
}

// Issue 31 §5: a subagent whose conversation fills the model's context
// compacts it like the parent's: no request of it grows past the window.
func TestSubagentCompacts(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) { c.ContextWindow = 8000 })
	line := strings.Repeat("lorem ipsum dolor sit amet ", 3) + "\n"
	if err := os.WriteFile(filepath.Join(h.dir, "big.txt"), []byte(strings.Repeat(line, 130)), 0o644); err != nil {
		t.Fatal(err)
	}
	summaries := 0
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if r.Last().Content == compact.Prompt() {
			summaries++
			return providertest.Reply{Text: "<summary>read big.txt several times</summary>"}
		}
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			if answersOf(r) < 6 && !strings.Contains(r.Messages[1].Content, "done") {
				return calls(call("read_file", `{"path":"big.txt"}`))
			}
			return providertest.Reply{Text: "child done"}
		}
		if r.Last().Role == "user" {
			return calls(taskCall(1, ""))
		}
		return providertest.Reply{Text: "parent done"}
	})
	evs := h.run("PARENT: one big task")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	compacted := false
	for _, ev := range evs {
		if s, ok := ev.(agent.Subagent); ok {
			if _, ok := s.Event.(agent.Compacted); ok {
				compacted = true
			}
		}
	}
	if !compacted || summaries == 0 {
		t.Errorf("the subagent never compacted (summaries asked: %d)", summaries)
	}
	for _, r := range h.srv.Requests() {
		var chars int
		for _, m := range r.Messages {
			chars += len(m.Content)
		}
		if chars/4 > 8000 {
			t.Errorf("a request of ~%d tokens went past the 8000-token window", chars/4)
		}
	}
	noLoopGoroutines(t)
}

// Issue 31 §2: with "stop after #1" set, a task on #2 does not start
// until the user continues: nothing of it runs or merges before.
func TestTaskWaitsAtGate(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if n, ok := strings.CutPrefix(r.Messages[1].Content, "CHILD "); ok {
			if answersOf(r) == 0 {
				return calls(call("write_file", fmt.Sprintf(`{"path":"f%s.txt","content":"from %s"}`, n, n)))
			}
			return providertest.Reply{Text: "report " + n}
		}
		switch answersOf(r) {
		case 0:
			return calls(call("todo", threeItems))
		case 1:
			return calls(taskCall(1, `,"item":"1"`), taskCall(2, `,"item":"2"`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	h.ag.Continue() // a front-end that can continue a gate
	var evs []agent.Event
	paused := false
	gated := false
	for ev := range h.ag.Run(context.Background(), "PARENT: plan") {
		evs = append(evs, ev)
		if up, ok := ev.(agent.TodoUpdate); ok && !gated && up.List.Find("2") >= 0 {
			gated = true
			if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanStopAfter, ID: "1"}); err != nil {
				t.Fatal(err)
			}
		}
		if p, ok := ev.(agent.Paused); ok {
			paused = true
			if p.After != "1" || p.Next != "2" {
				t.Errorf("paused after #%s before #%s, want after #1 before #2", p.After, p.Next)
			}
			for _, r := range h.srv.Requests() {
				if strings.HasPrefix(r.Messages[1].Content, "CHILD 2") {
					t.Error("the task on #2 asked the model before the user continued")
				}
			}
			if _, err := os.Stat(filepath.Join(h.dir, "f2.txt")); err == nil {
				t.Error("the task on #2 merged before the user continued")
			}
			h.ag.Continue()
		}
	}
	if !paused {
		t.Fatal("the task on #2 never waited at the gate after #1")
	}
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if b, _ := os.ReadFile(filepath.Join(h.dir, "f2.txt")); string(b) != "from 2" {
		t.Errorf("f2.txt = %q after continuing, want the task's write", b)
	}
}

// Issue 31 §3: switching to plan mode while a task runs holds its merge:
// the workspace does not change, the copy is kept and named, and the
// approved plan's prompt offers it.
func TestPlanModeHoldsTaskMerge(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			if answersOf(r) == 0 {
				return calls(call("write_file", `{"path":"a.txt","content":"from the task"}`))
			}
			for range 500 { // the user switches to plan mode meanwhile
				if h.ag.Mode() == agent.ModePlan {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			return providertest.Reply{Text: "report 1"}
		}
		if r.Last().Role == "user" {
			return calls(taskCall(1, ""))
		}
		return providertest.Reply{Text: "parent done"}
	})
	var evs []agent.Event
	for ev := range h.ag.Run(context.Background(), "PARENT: one task") {
		evs = append(evs, ev)
		if s, ok := ev.(agent.Subagent); ok && isToolEnd(s.Event) {
			h.ag.SetMode(agent.ModePlan)
		}
	}
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if _, err := os.Stat(filepath.Join(h.dir, "a.txt")); err == nil {
		t.Fatal("the task's patch was applied in plan mode")
	}
	var notice string
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, "plan mode") {
			notice = n.Text
		}
	}
	kept := regexpKept.FindStringSubmatch(notice)
	if kept == nil {
		t.Fatalf("no notice says the merge is held and where: %q", notice)
	}
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "apply the held work"}); err != nil {
		t.Fatal(err)
	}
	prompt, err := h.ag.ApprovePlan()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(prompt, kept[1]) {
		t.Errorf("the approved plan's prompt does not offer the held copy %s:\n%s", kept[1], prompt)
	}
}

// Issue 31 (also): /rewind's count of the messages that go counts the
// ones a compaction summarised, as the user still sees them.
func TestRewindCountAfterCompaction(t *testing.T) {
	h := newHarness(t, withStore(t))
	for _, p := range []string{"first", "second", "third", "fourth"} {
		h.srv.Enqueue(providertest.Reply{Text: p + " done"})
		h.run(p + " task")
	}
	h.srv.Enqueue(providertest.Reply{Text: "<summary>four small tasks</summary>"})
	if te := end(t, drain(h.ag.Compact(context.Background()))); te.Reason != agent.ReasonDone {
		t.Fatalf("compaction ended %s: %v", te.Reason, te.Err)
	}
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var second agent.RewindPoint
	for _, p := range pts {
		if p.Text == "second task" {
			second = p
		}
	}
	if second.Messages != 6 {
		t.Errorf("rewinding to before \"second task\" drops %d messages, want 6 (three turns of two, as shown)", second.Messages)
	}
}

// Seam: /plan cancel while the item's task waits on an approval dialog:
// the task stops (its request is answered by nobody), nothing is applied
// and the turn ends normally.
func TestCancelItemWhileTaskAsks(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk })
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			if answersOf(r) == 0 {
				return calls(call("bash", `{"command":"echo 'DROP TABLE users;' > drop.sql"}`))
			}
			return providertest.Reply{Text: "report 2"}
		}
		switch answersOf(r) {
		case 0:
			return calls(call("todo", threeItems))
		case 1:
			return calls(taskCall(2, `,"item":"2"`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	var evs []agent.Event
	asked := 0
	for ev := range h.ag.Run(context.Background(), "PARENT: plan") {
		evs = append(evs, ev)
		req, ok := ev.(agent.ApprovalRequest)
		if !ok {
			continue
		}
		if req.Tool == "todo" || req.Task == "" {
			req.Reply <- agent.Approval{Allow: true}
			continue
		}
		asked++
		if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanCancel, ID: "2", Reason: "not now"}); err != nil {
			t.Fatal(err)
		}
	}
	if asked != 1 {
		t.Fatalf("the task asked %d times", asked)
	}
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if _, err := os.Stat(filepath.Join(h.dir, "drop.sql")); err == nil {
		t.Error("the cancelled task's write ran in the workspace")
	}
	if it := h.ag.Todos().Items[h.ag.Todos().Find("2")]; it.Note != "not now" {
		t.Errorf("#2's note = %q, want the user's reason", it.Note)
	}
	noLoopGoroutines(t)
}
