package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// fakeHooks answers hook events from a table and records what it was told.
type fakeHooks struct {
	mu      sync.Mutex
	seen    []agent.HookInput
	outcome map[string]agent.HookOutcome
}

func (f *fakeHooks) Run(_ context.Context, in agent.HookInput) agent.HookOutcome {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen = append(f.seen, in)
	return f.outcome[in.Event]
}

func (f *fakeHooks) events() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, in := range f.seen {
		out = append(out, in.Event)
	}
	return out
}

func TestHooksAroundAToolCall(t *testing.T) {
	hooks := &fakeHooks{outcome: map[string]agent.HookOutcome{
		agent.HookPostToolUse: {Failures: []agent.HookFailed{{Event: agent.HookPostToolUse, Command: "lint", Error: "exit status 1"}}},
	}}
	h := newHarness(t, func(c *agent.Config) { c.Hooks = hooks; c.SessionID = func() string { return "s1" } })
	h.srv.Enqueue(calls(call("bash", `{"command":"echo hi"}`)), providertest.Reply{Text: "done"})
	evs := h.run("say hi")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %v: %v", te.Reason, te.Err)
	}
	if got, want := strings.Join(hooks.events(), ","), "user_prompt_submit,pre_tool_use,post_tool_use,stop"; got != want {
		t.Fatalf("hook events %s, want %s", got, want)
	}
	post := hooks.seen[2]
	if post.Tool != "bash" || post.SessionID != "s1" || post.Workspace != h.dir || post.Result == nil || !strings.Contains(*post.Result, "hi") || post.Failed == nil || *post.Failed {
		t.Errorf("post_tool_use input %+v", post)
	}
	if hooks.seen[0].Prompt != "say hi" {
		t.Errorf("user_prompt_submit prompt %q", hooks.seen[0].Prompt)
	}
	var failed []agent.HookFailed
	for _, ev := range evs {
		if f, ok := ev.(agent.HookFailed); ok {
			failed = append(failed, f)
		}
	}
	if len(failed) != 1 || failed[0].Command != "lint" {
		t.Errorf("HookFailed events %+v, want the post hook's", failed)
	}
	if ends := toolEnds(evs); len(ends) != 1 || ends[0].IsError {
		t.Errorf("a failing post hook changed the call: %+v", ends)
	}
}

func TestPreToolHookBlocksTheCall(t *testing.T) {
	hooks := &fakeHooks{outcome: map[string]agent.HookOutcome{
		agent.HookPreToolUse: {Block: true, Message: "rm is not allowed here\n"},
	}}
	h := newHarness(t, func(c *agent.Config) { c.Hooks = hooks })
	h.srv.Enqueue(calls(call("bash", `{"command":"rm -rf x"}`)), providertest.Reply{Text: "ok"})
	evs := h.run("clean up")
	end(t, evs)
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	got := reqs[1].Last()
	want := "Error: a pre_tool_use hook of the user blocked this bash call: rm is not allowed here"
	if got.Role != "tool" || got.Content != want {
		t.Fatalf("tool message %+v, want %q", got, want)
	}
	if post := hooks.seen[2]; post.Event != agent.HookPostToolUse || post.Failed == nil || !*post.Failed {
		t.Errorf("post_tool_use of a blocked call: %+v, want failed", post)
	}
}

func TestPromptHookBlocksThePrompt(t *testing.T) {
	hooks := &fakeHooks{outcome: map[string]agent.HookOutcome{
		agent.HookUserPromptSubmit: {Block: true, Message: "no secrets in prompts"},
	}}
	h := newHarness(t, func(c *agent.Config) { c.Hooks = hooks })
	te := end(t, h.run("my password is hunter2"))
	if te.Reason != agent.ReasonError || te.Kind != agent.KindPromptBlocked || !errors.Is(te.Err, agent.ErrPromptBlocked) || !strings.Contains(te.Error, "no secrets in prompts") {
		t.Fatalf("TurnEnd %+v, want the prompt blocked with the hook's message", te)
	}
	if n := len(h.srv.Requests()); n != 0 {
		t.Errorf("%d model requests for a blocked prompt", n)
	}
	if hist := h.ag.History(); len(hist) != 0 {
		t.Errorf("blocked prompt kept in history: %+v", hist)
	}
}

// extraSource offers one tool and a note, like an MCP manager.
type extraSource struct{}

func (extraSource) Tools(_ context.Context, note func(string)) []tools.Tool {
	note("MCP server slow is still starting")
	return []tools.Tool{echoTool{}}
}

type echoTool struct{}

func (echoTool) Spec() provider.ToolSpec {
	return provider.ToolSpec{Name: "mcp__x__echo", Description: "echo", Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}
}

func (echoTool) Run(_ context.Context, args json.RawMessage) (string, error) {
	return "echoed " + string(args), nil
}

func TestToolSourceJoinsTheTurn(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.ToolSource = extraSource{} })
	h.srv.Enqueue(calls(call("mcp__x__echo", `{"text":"a"}`)), providertest.Reply{Text: "done"})
	evs := h.run("echo a")
	end(t, evs)
	var notes []string
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok {
			notes = append(notes, n.Text)
		}
	}
	if len(notes) != 1 || notes[0] != "MCP server slow is still starting" {
		t.Errorf("notices %q", notes)
	}
	reqs := h.srv.Requests()
	if !strings.Contains(strings.Join(reqs[0].Tools, ","), "mcp__x__echo") {
		t.Fatalf("tools offered %v", reqs[0].Tools)
	}
	if got := reqs[1].Last().Content; got != `echoed {"text":"a"}` {
		t.Fatalf("tool result %q", got)
	}
}

func TestSubagentGetsTheSourceTools(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.ToolSource = extraSource{} })
	h.srv.Enqueue(
		calls(call("task", `{"description":"echo","prompt":"echo b"}`)),
		calls(call("mcp__x__echo", `{"text":"b"}`)),
		providertest.Reply{Text: "child done"},
		providertest.Reply{Text: "parent done"},
	)
	end(t, h.run("delegate"))
	reqs := h.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	child := strings.Join(reqs[1].Tools, ",")
	if !strings.Contains(child, "mcp__x__echo") || strings.Contains(child, "todo") {
		t.Fatalf("the subagent was offered %s", child)
	}
	if got := reqs[2].Last().Content; got != `echoed {"text":"b"}` {
		t.Fatalf("the subagent's MCP result %q", got)
	}
}
