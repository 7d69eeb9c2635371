package agent_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// taskCall is a task call whose subagent's prompt is "CHILD n".
func taskCall(n int, extra string) providertest.Call {
	return call("task", fmt.Sprintf(`{"description":"part %d","prompt":"CHILD %d"%s}`, n, n, extra))
}

// parallelServer answers by content, never by arrival order: the parent's
// first request gets first (the calls of its answer), the parent's next
// one "parent done"; a subagent "CHILD n" answers "report n" once
// together subagents were open at the same time on the server (so three
// tasks report only when the server saw all three at once), else "alone
// n" after waiting up to a few seconds.
func parallelServer(h *harness, together int, first providertest.Reply) {
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		opening := r.Messages[1].Content // after the system prompt
		if n, ok := strings.CutPrefix(opening, "CHILD "); ok {
			if !h.srv.WaitOpen(together, 5*time.Second) {
				return providertest.Reply{Text: "alone " + n}
			}
			return providertest.Reply{Text: "report " + n}
		}
		if r.Last().Role == "user" {
			return first
		}
		return providertest.Reply{Text: "parent done"}
	})
}

// toolResults returns the tool messages of the parent's last request.
func toolResults(h *harness) []providertest.Message {
	var last providertest.Request
	for _, r := range h.srv.Requests() {
		if !strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			last = r
		}
	}
	var out []providertest.Message
	for _, m := range last.Messages {
		if m.Role == "tool" {
			out = append(out, m)
		}
	}
	return out
}

// noLoopGoroutines fails when a goroutine of the agent's loop is still
// running after the turn (waiting a bounded time for them to end): the
// way goleak checks, restricted to this package's frames so that the
// HTTP client's idle connections do not count.
func noLoopGoroutines(t *testing.T) {
	t.Helper()
	var stacks string
	for range 200 {
		buf := make([]byte, 1<<20)
		stacks = string(buf[:runtime.Stack(buf, true)])
		if !strings.Contains(stacks, "tick/agent.(*loop)") && !strings.Contains(stacks, "tick/agent.(*taskTool)") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("a goroutine of the loop outlived the turn:\n%s", stacks)
}

func TestTasksRunSideBySide(t *testing.T) {
	before := runtime.NumGoroutine()
	h := newHarness(t) // no cap configured: DefaultParallelTasks
	parallelServer(h, 3, calls(taskCall(1, ""), taskCall(2, ""), taskCall(3, "")))
	evs := h.run("PARENT: split the work")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if got := h.srv.MaxOpen(); got != 3 {
		t.Errorf("the server saw at most %d requests at once, want 3", got)
	}
	res := toolResults(h)
	if len(res) != 3 {
		t.Fatalf("the parent got %d tool results, want 3", len(res))
	}
	for i, m := range res {
		if want := fmt.Sprintf("report %d", i+1); m.Content != want {
			t.Errorf("result %d = %q, want %q (in the calls' order, all three at once)", i, m.Content, want)
		}
	}
	noLoopGoroutines(t)
	t.Logf("goroutines before %d, after %d (the HTTP client's idle connections remain)", before, runtime.NumGoroutine())
}

func TestParallelTasksCap(t *testing.T) {
	tests := []struct {
		name string
		cfg  func(*agent.Config)
		want int
	}{
		{"configured 2", func(c *agent.Config) { c.MaxParallelTasks = 2 }, 2},
		{"local server with 2 slots", func(c *agent.Config) { c.ParallelTasksFunc = func() int { return 2 } }, 2},
		{"local server that did not say", func(c *agent.Config) { c.ParallelTasksFunc = func() int { return 0 } }, 1},
		{"configured wins over the server", func(c *agent.Config) {
			c.MaxParallelTasks = 1
			c.ParallelTasksFunc = func() int { return 4 }
		}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.cfg)
			// Each subagent waits for tc.want of them: the cap is reached,
			// and never passed.
			parallelServer(h, tc.want, calls(taskCall(1, ""), taskCall(2, ""), taskCall(3, ""), taskCall(4, "")))
			evs := h.run("PARENT: split the work")
			if te := end(t, evs); te.Reason != agent.ReasonDone {
				t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
			}
			h.checkValid()
			if got := h.srv.MaxOpen(); got != tc.want {
				t.Errorf("the server saw at most %d requests at once, want %d", got, tc.want)
			}
			said := 0
			for _, ev := range evs {
				if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, "max_parallel_tasks") {
					said++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[tc.want == 1]; said != want {
				t.Errorf("the one-at-a-time notice was given %d times, want %d", said, want)
			}
			for i, m := range toolResults(h) {
				if want := fmt.Sprintf("report %d", i+1); m.Content != want {
					t.Errorf("result %d = %q, want %q", i, m.Content, want)
				}
			}
			noLoopGoroutines(t)
		})
	}
}

func TestOtherToolsKeepOrderAroundTasks(t *testing.T) {
	h := newHarness(t)
	parallelServer(h, 2, calls(
		call("write_file", `{"path":"a.txt","content":"one"}`),
		taskCall(1, ""),
		call("read_file", `{"path":"a.txt"}`),
		taskCall(2, ""),
	))
	evs := h.run("PARENT: mixed")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	res := toolResults(h)
	if len(res) != 4 {
		t.Fatalf("the parent got %d tool results, want 4", len(res))
	}
	if res[1].Content != "report 1" || res[3].Content != "report 2" || !strings.Contains(res[2].Content, "one") {
		t.Errorf("results out of the calls' order: %q", res)
	}
	var order []string
	for _, ev := range evs {
		if s, ok := ev.(agent.ToolStart); ok {
			order = append(order, s.Name)
		}
	}
	if order[0] != "write_file" || order[len(order)-1] != "read_file" {
		t.Errorf("tool starts = %v: the write runs first, the read after the tasks", order)
	}
}
