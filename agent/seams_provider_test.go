package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// Seams of the provider's features (calls written as text, in the answer
// or in thoughts; the cap on calls of one answer; masking) with undo and
// rewind, the approval dialog and parallel tasks.

// hermesCall is a call written as text in Hermes' format.
func hermesCall(name, args string) string {
	return "<tool_call>\n{\"name\": \"" + name + "\", \"arguments\": " + args + "}\n</tool_call>"
}

// TestRecoveredThoughtCallRewound: a call the model wrote inside its
// thoughts (recovered, then run) is a change like any other: rewinding the
// turn takes its file back, and the conversation goes on valid, without
// the recovered call.
func TestRecoveredThoughtCallRewound(t *testing.T) {
	h := newHarness(t, withStore(t))
	if err := os.WriteFile(filepath.Join(h.dir, "work.txt"), []byte("v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(
		providertest.Reply{Reasoning: "Update it.\n" + hermesCall("write_file", `{"path": "work.txt", "content": "v2\n"}`), ChunkSize: 5},
		providertest.Reply{Text: "Updated."},
	)
	evs := h.run("update work.txt")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	if n := recoveredNotices(evs); len(n) != 1 || !strings.Contains(n[0], "inside its thoughts") {
		t.Fatalf("notices %q, want the call recovered from the thoughts", n)
	}
	if got := readFile(t, h.dir, "work.txt"); got != "v2\n" {
		t.Fatalf("the recovered write did not land: %q", got)
	}
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil || len(pts) == 0 {
		t.Fatalf("points %+v, %v", pts, err)
	}
	if _, err := h.ag.Rewind(context.Background(), pts[0].ID, agent.RewindBoth); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, h.dir, "work.txt"); got != "v1\n" {
		t.Errorf("work.txt after the rewind: %q, want v1", got)
	}
	for _, m := range h.ag.History() {
		if len(m.ToolCalls) > 0 || m.Role == provider.RoleTool {
			t.Errorf("the rewound conversation keeps the recovered call: %+v", m)
		}
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	end(t, h.run("again"))
	h.checkValid()
}

// TestCallCapAsksOnlyKeptCalls: an answer with more calls than MaxCalls,
// in ask mode: the approval dialog is only ever opened for calls that
// were kept (the first answered "always"), never for the calls past the
// cap, which stand as one error and write nothing.
func TestCallCapAsksOnlyKeptCalls(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk })
	h.ag.SetMode(agent.ModeAsk)
	var cs []providertest.Call
	for i := range provider.MaxCalls + 3 {
		cs = append(cs, providertest.Call{ID: fmt.Sprintf("call_%d", i), Name: "write_file", Args: fmt.Sprintf(`{"path":"f%d.txt","content":"x"}`, i)})
	}
	h.srv.Enqueue(providertest.Reply{ToolCalls: cs}, providertest.Reply{Text: "done"})
	reqs, ends := turn(t, h, allowAlways)
	h.checkValid()
	if len(reqs) == 0 {
		t.Fatal("no approval asked for the kept calls")
	}
	for _, r := range reqs {
		if r.Tool != "write_file" || strings.Contains(r.Summary, "f256") || strings.Contains(r.Summary, "more calls") {
			t.Errorf("approval asked for %+v, want only kept write_file calls", r)
		}
	}
	if len(ends) != provider.MaxCalls+1 {
		t.Fatalf("%d tool ends, want %d kept calls and one for those past the cap", len(ends), provider.MaxCalls+1)
	}
	if last := ends[len(ends)-1]; !last.IsError || !strings.Contains(last.Output, "3 more tool calls past the limit") {
		t.Errorf("the last result = %+v, want the cap's error", last)
	}
	if readFile(t, h.dir, fmt.Sprintf("f%d.txt", provider.MaxCalls-1)) != "x" {
		t.Error("the last kept call did not run")
	}
	for i := provider.MaxCalls; i < provider.MaxCalls+3; i++ {
		if _, err := os.Stat(filepath.Join(h.dir, fmt.Sprintf("f%d.txt", i))); err == nil {
			t.Errorf("f%d.txt exists: a call past the cap ran", i)
		}
	}
}

// TestTasksRecoverTextCallsRedacted: two tasks side by side, each writing
// its call as text (one in the answer, one inside its thoughts): both
// calls are recovered and run in their task, and what they read of tick's
// own key reaches neither task's model nor the parent unmasked.
func TestTasksRecoverTextCallsRedacted(t *testing.T) {
	const key = "sk-tick-own-key-0123456789"
	h := newHarness(t, func(c *agent.Config) { c.Secrets = []string{key} })
	if err := os.WriteFile(filepath.Join(h.dir, ".env"), []byte("OPENAI_API_KEY="+key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	read := hermesCall("read_file", `{"path": ".env"}`)
	scriptedTasks(h, calls(taskCall(1, ""), taskCall(2, "")), map[string][]func() providertest.Reply{
		"1": {reply(providertest.Reply{Text: "Reading it.\n" + read, ChunkSize: 7})},
		"2": {reply(providertest.Reply{Reasoning: "Read the env file.\n" + read, ChunkSize: 3})},
	})
	evs := h.run("PARENT: two tasks")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	for _, n := range []string{"1", "2"} {
		res := childResults(h, n)
		if len(res) != 1 || !strings.Contains(res[0], "OPENAI_API_KEY=[redacted by tick]") {
			t.Errorf("task %s's results = %q, want the recovered read_file run, the key masked", n, res)
		}
	}
	for _, r := range h.srv.Requests() {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, key) {
				t.Errorf("a request to the model carries the key: %.200q", m.Content)
			}
		}
	}
	for _, ev := range evs {
		if s := fmt.Sprintf("%+v", ev); strings.Contains(s, key) {
			t.Errorf("event %T carries the key", ev)
		}
	}
}

// TestRecoveredTodoCallHonoursPlanEdits: after the user cancelled an item
// of the plan, a todo call the model wrote as text (Gemma's format, read
// from its thoughts) that re-opens it is refused like a real call: the
// user's edit stands, and the model is told why.
func TestRecoveredTodoCallHonoursPlanEdits(t *testing.T) {
	h := newHarness(t, noReminder)
	h.srv.Enqueue(
		calls(call("todo", `{"goal":"Two steps","items":[{"id":"1","text":"ALPHA","status":"in_progress"},{"id":"2","text":"BRAVO","status":"pending"}]}`)),
		providertest.Reply{Text: "planned"},
	)
	end(t, h.run("plan it"))
	if _, err := h.ag.EditPlan(agent.PlanEdit{Op: agent.PlanCancel, ID: "2", Reason: "not needed"}); err != nil {
		t.Fatal(err)
	}
	reopen := `<|tool_call>call:todo{items:[{id:<|"|>1<|"|>,text:<|"|>ALPHA<|"|>,status:<|"|>completed<|"|>},{id:<|"|>2<|"|>,text:<|"|>BRAVO<|"|>,status:<|"|>in_progress<|"|>}]}<tool_call|>`
	h.srv.Enqueue(
		providertest.Reply{Reasoning: "Next, BRAVO.\n" + reopen, ChunkSize: 6},
		providertest.Reply{Text: "Understood."},
	)
	evs := h.run("go on")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	if n := recoveredNotices(evs); len(n) != 1 || !strings.Contains(n[0], "Gemma") {
		t.Fatalf("notices %q, want the todo call recovered", n)
	}
	if ends := toolEnds(evs); len(ends) != 1 || !ends[0].IsError || !strings.Contains(ends[0].Output, "#2 was cancelled by the user") {
		t.Errorf("tool ends %+v, want the recovered call refused for the user's cancel", ends)
	}
	if got := h.ag.Todos().Render(); !strings.Contains(got, "#2: BRAVO (cancelled: not needed)") {
		t.Errorf("the plan after the refused call:\n%s", got)
	}
}
