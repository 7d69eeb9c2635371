package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// harness is an agent wired to a fake server over real HTTP.
type harness struct {
	t   *testing.T
	srv *providertest.Server
	ag  *agent.Agent
	dir string
}

func newHarness(t *testing.T, mutate ...func(*agent.Config)) *harness {
	t.Helper()
	return newClientHarness(t, nil, mutate...)
}

// newClientHarness is newHarness with the client's config changed by
// client (when not nil).
func newClientHarness(t *testing.T, client func(*provider.Config), mutate ...func(*agent.Config)) *harness {
	t.Helper()
	srv := providertest.New(t)
	pcfg := provider.Config{BaseURL: srv.URL, APIKey: "test-key", Model: "test-model", MinBackoff: time.Millisecond}
	if client != nil {
		client(&pcfg)
	}
	c, err := provider.New(pcfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := agent.Config{Model: c, ModelName: "test-model", Workspace: dir, Approval: agent.ApproveAll}
	for _, m := range mutate {
		m(&cfg)
	}
	ag, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, srv: srv, ag: ag, dir: dir}
}

// run runs one turn to its end and returns every event.
func (h *harness) run(prompt string) []agent.Event {
	h.t.Helper()
	return drain(h.ag.Run(context.Background(), prompt))
}

func drain(ch <-chan agent.Event) []agent.Event {
	var evs []agent.Event
	for ev := range ch {
		evs = append(evs, ev)
	}
	return evs
}

// end returns the TurnEnd, checking that it is the last event and the only one.
func end(t *testing.T, evs []agent.Event) agent.TurnEnd {
	t.Helper()
	n := 0
	for _, ev := range evs {
		if _, ok := ev.(agent.TurnEnd); ok {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("got %d TurnEnd events, want exactly 1", n)
	}
	te, ok := evs[len(evs)-1].(agent.TurnEnd)
	if !ok {
		t.Fatalf("last event is %T, want TurnEnd", evs[len(evs)-1])
	}
	return te
}

// toolEnds returns the ToolEnd events of the parent, in order.
func toolEnds(evs []agent.Event) []agent.ToolEnd {
	var out []agent.ToolEnd
	for _, ev := range evs {
		if te, ok := ev.(agent.ToolEnd); ok {
			out = append(out, te)
		}
	}
	return out
}

func text(evs []agent.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if d, ok := ev.(agent.TextDelta); ok {
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

func call(name, args string) providertest.Call { return providertest.Call{Name: name, Args: args} }

func calls(cs ...providertest.Call) providertest.Reply { return providertest.Reply{ToolCalls: cs} }

// checkValid fails when the fake server saw an invalid request.
func (h *harness) checkValid() {
	h.t.Helper()
	if errs := h.srv.Errors(); len(errs) > 0 {
		h.t.Fatalf("the server rejected requests: %v", errs)
	}
}

func TestPlanWriteRunComplete(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		calls(call("todo", `{"goal":"Make hello","items":[{"id":"1","text":"Write hello.sh","status":"in_progress","active_form":"Writing hello.sh"},{"id":"2","text":"Run it","status":"pending"}]}`)),
		calls(call("write_file", `{"path":"hello.sh","content":"echo hello from tick\n"}`)),
		calls(call("todo", `{"goal":"Make hello","items":[{"id":"1","text":"Write hello.sh","status":"completed","note":"written"},{"id":"2","text":"Run it","status":"in_progress"}]}`),
			call("bash", `{"command":"bash hello.sh"}`)),
		calls(call("todo", `{"goal":"Make hello","items":[{"id":"1","text":"Write hello.sh","status":"completed","note":"written"},{"id":"2","text":"Run it","status":"done","note":"prints hello"}]}`)),
		providertest.Reply{Text: "Done: `hello.sh` prints **hello from tick**."},
	)
	evs := h.run("make a hello script and run it")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s (%v), want done", te.Reason, te.Err)
	}
	h.checkValid()
	if got, err := os.ReadFile(filepath.Join(h.dir, "hello.sh")); err != nil || string(got) != "echo hello from tick\n" {
		t.Fatalf("hello.sh = %q, %v", got, err)
	}
	var bashOut string
	var updates []todo.List
	for _, ev := range evs {
		switch ev := ev.(type) {
		case agent.ToolEnd:
			if ev.Name == "bash" {
				bashOut = ev.Output
			}
			if ev.IsError {
				t.Errorf("tool %s failed: %s", ev.Name, ev.Output)
			}
		case agent.TodoUpdate:
			updates = append(updates, ev.List)
		}
	}
	if !strings.Contains(bashOut, "hello from tick") {
		t.Errorf("bash output = %q, want the script's output", bashOut)
	}
	if len(updates) != 3 {
		t.Fatalf("got %d todo updates, want 3", len(updates))
	}
	if done, total := updates[2].Counts(); done != 2 || total != 2 {
		t.Errorf("final plan %d/%d, want 2/2", done, total)
	}
	if got := h.ag.Todos(); got.Goal != "Make hello" || got.Items[1].Status != todo.Completed {
		t.Errorf("agent's list = %+v, want the final plan", got)
	}
	if !strings.Contains(text(evs), "hello from tick") {
		t.Errorf("streamed text = %q", text(evs))
	}
	// The model saw the rendered list as the todo result.
	reqs := h.srv.Requests()
	last := reqs[len(reqs)-1].Messages
	found := false
	for _, m := range last {
		if m.Role == "tool" && strings.Contains(m.Content, "[x] #1: Write hello.sh -> written") && strings.Contains(m.Content, "(2/2 completed)") {
			found = true
		}
	}
	if !found {
		t.Error("the rendered list never reached the model as a tool result")
	}
}

func TestInvalidTodoCorrected(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"A","status":"in_progress"},{"id":"2","text":"B","status":"in_progress"}]}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"A","status":"finished-ish"}]}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"A","status":"cancelled"}]}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"A","status":"in_progress"},{"id":"2","text":"B","status":"pending"}]}`)),
		providertest.Reply{Text: "ok"},
		providertest.Reply{Text: "ok"}, // after the reminder of the open items
	)
	evs := h.run("plan")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	ends := toolEnds(evs)
	wants := []string{"at most one may be in_progress", "pending, in_progress, completed, cancelled", "without a note", ""}
	if len(ends) != len(wants) {
		t.Fatalf("got %d tool results, want %d", len(ends), len(wants))
	}
	for i, want := range wants {
		t.Run(want, func(t *testing.T) {
			got := ends[i]
			if want == "" {
				if got.IsError {
					t.Fatalf("valid list rejected: %s", got.Output)
				}
				return
			}
			if !got.IsError || !strings.HasPrefix(got.Output, "Error: ") || !strings.Contains(got.Output, want) || !strings.Contains(got.Output, "unchanged") {
				t.Fatalf("result = %q, want an Error naming %q", got.Output, want)
			}
		})
	}
	if n := len(h.ag.Todos().Items); n != 2 {
		t.Errorf("list has %d items, want the corrected 2", n)
	}
}

func TestNagOnFourthRound(t *testing.T) {
	h := newHarness(t)
	for i := 0; i < 4; i++ {
		h.srv.Enqueue(calls(call("bash", `{"command":"true"}`)))
	}
	h.srv.Enqueue(providertest.Reply{Text: "done"})
	evs := h.run("work")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	reqs := h.srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("got %d requests, want 5", len(reqs))
	}
	for i, r := range reqs {
		n := strings.Count(dump(r.Messages), "<reminder>Update your todos.</reminder>")
		want := 0
		if i >= 3 { // requests 4 and 5 follow the third tool round
			want = 1
		}
		if n != want {
			t.Errorf("request %d holds %d reminders, want %d", i+1, n, want)
		}
	}
	msgs := reqs[3].Messages
	last := msgs[len(msgs)-1]
	if last.Role != "user" || last.Content != "<reminder>Update your todos.</reminder>" || msgs[len(msgs)-2].Role != "tool" {
		t.Errorf("the reminder must follow the round's tool results; got %q then %q", msgs[len(msgs)-2].Role, last.Content)
	}
}

func dump(msgs []providertest.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Content)
		b.WriteByte('\n')
	}
	return b.String()
}
