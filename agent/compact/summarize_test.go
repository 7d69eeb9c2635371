package compact

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

func client(t *testing.T, srv *providertest.Server) *provider.Client {
	t.Helper()
	c, err := provider.New(provider.Config{BaseURL: srv.URL, Model: "default-model", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// longSession is a history with large tool outputs and arguments, a
// reasoning text and a call left without a result.
func longSession() []provider.Message {
	big := strings.Repeat("line of build output\n", 1000) // 21,000 bytes
	content := strings.Repeat("package main // é\n", 500) // multi-byte runes
	args, _ := json.Marshal(map[string]string{"path": "main.go", "content": content})
	return []provider.Message{
		u("Make the build pass. TOKEN_GOAL"),
		{Role: provider.RoleAssistant, Content: "Running the build.", Reasoning: "SECRET_REASONING", ToolCalls: []provider.ToolCall{
			{ID: "c1", Name: "bash", Arguments: `{"command":"go build ./..."}`},
		}},
		{Role: provider.RoleTool, ToolCallID: "c1", Content: "HEAD_OF_OUTPUT\n" + big + "TAIL_OF_OUTPUT"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c2", Name: "write_file", Arguments: string(args)}}},
		{Role: provider.RoleTool, ToolCallID: "c2", Content: "wrote main.go"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c3", Name: "bash", Arguments: `{"command":"go test"}`}}},
		u("stop, use make instead"),
	}
}

func TestSummarize(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "<summary>\n- Goal: make the build pass.\n</summary>\n"})
	got, err := Summarize(context.Background(), client(t, srv), "small-model", longSession(), 0)
	if err != nil {
		t.Fatalf("Summarize: %v", err)
	}
	if got != "- Goal: make the build pass." {
		t.Errorf("summary = %q, want the text without tags", got)
	}
	if errs := srv.Errors(); len(errs) != 0 {
		t.Fatalf("the strict server refused the request: %q", errs)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	req := reqs[0]
	if len(req.Tools) != 0 {
		t.Errorf("the summary request offers tools %v", req.Tools)
	}
	if req.Model != "small-model" {
		t.Errorf("model %q, want small-model", req.Model)
	}
	if req.Messages[0].Role != "system" || req.Last().Role != "user" || req.Last().Content != Prompt() {
		t.Errorf("request does not start with the system message and end with the prompt: %+v", req.Last())
	}
	body := string(req.Body)
	checks := []struct {
		name string
		ok   bool
	}{
		{"keeps the user's goal", strings.Contains(body, "TOKEN_GOAL")},
		{"keeps the head of a large output", strings.Contains(body, "HEAD_OF_OUTPUT")},
		{"keeps the tail of a large output", strings.Contains(body, "TAIL_OF_OUTPUT")},
		{"says what was cut", strings.Contains(body, "bytes cut")},
		{"leaves reasoning out", !strings.Contains(body, "SECRET_REASONING")},
		{"asks for files touched", strings.Contains(Prompt(), "Files") && strings.Contains(Prompt(), "Next")},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if !c.ok {
				t.Fail()
			}
		})
	}
	var interrupted bool
	for _, m := range req.Messages {
		switch m.Role {
		case "tool":
			if len(m.Content) > ToolOutputCap+40 {
				t.Errorf("tool result of %d bytes sent, cap %d", len(m.Content), ToolOutputCap)
			}
			interrupted = interrupted || (m.ToolCallID == "c3" && strings.Contains(m.Content, "interrupted"))
		case "assistant":
			for _, c := range m.ToolCalls {
				if len(c.Args) > 2*ArgumentsCap || !json.Valid([]byte(c.Args)) {
					t.Errorf("arguments of %s: %d bytes, valid JSON %v", c.ID, len(c.Args), json.Valid([]byte(c.Args)))
				}
			}
		}
	}
	if !interrupted {
		t.Errorf("the call without a result was not answered as interrupted")
	}
}

func TestSummarizeBudget(t *testing.T) {
	var old []provider.Message
	old = append(old, u("FIRST_PROMPT"))
	for i := range 40 {
		id := fmt.Sprintf("c%d", i)
		old = append(old, call(id), res(id, 1500))
	}
	old = append(old, a("LAST_ANSWER"))
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "summary"})
	const budget = 5000
	if _, err := Summarize(context.Background(), client(t, srv), "", old, budget); err != nil {
		t.Fatal(err)
	}
	req := srv.Requests()[0]
	var msgs []provider.Message
	for _, m := range req.Messages {
		pm := provider.Message{Role: provider.Role(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			pm.ToolCalls = append(pm.ToolCalls, provider.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args})
		}
		msgs = append(msgs, pm)
	}
	if est := Estimate(msgs); est > budget {
		t.Errorf("request estimated at %d tokens, budget %d", est, budget)
	}
	body := string(req.Body)
	if !strings.Contains(body, "FIRST_PROMPT") || !strings.Contains(body, "LAST_ANSWER") {
		t.Errorf("the first prompt or the last answer was left out")
	}
	if !strings.Contains(req.Last().Content, "older messages were left out") {
		t.Errorf("the prompt does not say messages were left out: %q", req.Last().Content)
	}
	if errs := srv.Errors(); len(errs) != 0 {
		t.Errorf("the strict server refused the request: %q", errs)
	}
}

func TestSummarizeErrors(t *testing.T) {
	cases := []struct {
		name  string
		old   []provider.Message
		reply *providertest.Reply
		want  string
	}{
		{"nothing to summarise", nil, nil, "no messages"},
		{"server error", []provider.Message{u("hi")}, &providertest.Reply{Status: 400, Body: `{"error":{"message":"context too long"}}`}, "context too long"},
		{"empty answer", []provider.Message{u("hi")}, &providertest.Reply{Text: "  \n"}, "empty summary"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := providertest.New(t)
			if c.reply != nil {
				srv.Enqueue(*c.reply)
			}
			_, err := Summarize(context.Background(), client(t, srv), "m", c.old, 0)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "summari") {
				t.Errorf("error = %v, want one naming the action and %q", err, c.want)
			}
		})
	}
}

// TestCompactedHistoryIsValid runs a whole compaction against the strict
// server: the summary request, then a request with the rebuilt history,
// which holds the summary and the todo list verbatim and none of the old
// large outputs.
func TestCompactedHistoryIsValid(t *testing.T) {
	history := longSession()
	history = append(history, a("ok, switching to make"), u("also add a test"),
		call("c9"), res("c9", 50), a("RECENT_ANSWER"))
	old, kept := Split(history, 1, 2000)
	if len(old) == 0 {
		t.Fatal("nothing to compact")
	}
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "SUMMARY_TEXT"}, providertest.Reply{Text: "carrying on"})
	c := client(t, srv)
	summary, err := Summarize(context.Background(), c, "", old, 0)
	if err != nil {
		t.Fatal(err)
	}
	rebuilt := Rebuild(summary, plan, kept)
	msgs := append([]provider.Message{{Role: provider.RoleSystem, Content: "system prompt"}}, rebuilt...)
	if _, err := c.Stream(context.Background(), provider.Request{Messages: msgs}, provider.Handler{}); err != nil {
		t.Fatalf("the rebuilt history was refused: %v %q", err, srv.Errors())
	}
	body := string(srv.Requests()[1].Body)
	var wire struct {
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(body), &wire); err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, m := range wire.Messages {
		all.WriteString(m.Content)
	}
	text := all.String()
	for _, want := range []string{"SUMMARY_TEXT", plan.Render(), "RECENT_ANSWER"} {
		if !strings.Contains(text, want) {
			t.Errorf("the request after compaction lacks %q", want)
		}
	}
	for _, gone := range []string{"HEAD_OF_OUTPUT", "line of build output"} {
		if strings.Contains(text, gone) {
			t.Errorf("the request after compaction still holds %q", gone)
		}
	}
}

func TestClipArgs(t *testing.T) {
	long := strings.Repeat("x", 10_000)
	cases := []struct {
		name, args string
	}{
		{"object with a long value", `{"path":"a.go","content":"` + long + `"}`},
		{"not JSON", `{"path": "a.go", "content": "` + long},
		{"array", `[` + strings.Repeat(`"ab",`, 3000) + `"ab"]`},
		{"short", `{"a":1}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := clipArgs(c.args, ArgumentsCap)
			if !json.Valid([]byte(got)) && json.Valid([]byte(c.args)) {
				t.Errorf("clipped valid arguments into invalid JSON")
			}
			if len(c.args) > ArgumentsCap && (len(got) > 2*ArgumentsCap || !json.Valid([]byte(got))) {
				t.Errorf("clipped to %d bytes, valid %v", len(got), json.Valid([]byte(got)))
			}
			if len(c.args) <= ArgumentsCap && got != c.args {
				t.Errorf("short arguments changed: %q", got)
			}
		})
	}
}
