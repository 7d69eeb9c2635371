package provider_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// fixtureDir holds the recorded OpenAI streams (see its README.md).
const fixtureDir = "testdata/openai-recorded"

// newClient returns a client for srv with tiny backoffs.
func newClient(t testing.TB, url string, mod func(*provider.Config)) *provider.Client {
	t.Helper()
	cfg := provider.Config{APIKey: "sk-test", BaseURL: url, Model: "test-model", MinBackoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	c, err := provider.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// userRequest is a one-message request.
func userRequest(text string) provider.Request {
	return provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: text}}}
}

// recorder collects what a Handler receives.
type recorder struct {
	deltas  []provider.Delta
	retries []provider.Retry
}

func (r *recorder) handler() provider.Handler {
	return provider.Handler{
		OnDelta: func(d provider.Delta) { r.deltas = append(r.deltas, d) },
		OnRetry: func(rt provider.Retry) { r.retries = append(r.retries, rt) },
	}
}

func (r *recorder) text() (content, reasoning string) {
	var c, rs strings.Builder
	for _, d := range r.deltas {
		c.WriteString(d.Content)
		rs.WriteString(d.Reasoning)
	}
	return c.String(), rs.String()
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatalf("read the recorded fixture: %v", err)
	}
	return b
}

func TestStreamAnswers(t *testing.T) {
	bashArgs := `{"command":"ls -la /tmp && echo done"}`
	tests := []struct {
		name       string
		reply      func(t *testing.T) providertest.Reply
		wantText   string
		wantReason string
		wantCalls  []provider.ToolCall // ids "*" are checked to be generated
		wantFinish string
		wantUsage  *provider.Usage
	}{
		{
			name: "text in small chunks",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{Text: "Hello there — ünïcode, and more text."}
			},
			wantText:   "Hello there — ünïcode, and more text.",
			wantFinish: "stop",
		},
		{
			name: "tool calls split across chunks",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{Text: "Let me look.", ToolCalls: []providertest.Call{{ID: "call_a", Name: "bash", Args: bashArgs}, {ID: "call_b", Name: "read_file", Args: `{"path":"go.mod"}`}}}
			},
			wantText:   "Let me look.",
			wantCalls:  []provider.ToolCall{{ID: "call_a", Name: "bash", Arguments: bashArgs}, {ID: "call_b", Name: "read_file", Arguments: `{"path":"go.mod"}`}},
			wantFinish: "tool_calls",
		},
		{
			name: "recorded parallel tool calls",
			reply: func(t *testing.T) providertest.Reply {
				return providertest.Reply{Raw: readFixture(t, "parallel-tool-calls.sse")}
			},
			wantCalls: []provider.ToolCall{
				{ID: "call_JMW1whyEaYG438VE1OIflxA2", Name: "GetWeatherArgs", Arguments: `{"city": "Edinburgh", "country": "GB", "units": "c"}`},
				{ID: "call_DNYTawLBoN8fj3KN6qU9N1Ou", Name: "get_stock_price", Arguments: `{"ticker": "AAPL", "exchange": "NASDAQ"}`},
			},
			wantFinish: "tool_calls",
			wantUsage:  &provider.Usage{PromptTokens: 149, CompletionTokens: 60, TotalTokens: 209},
		},
		{
			name: "recorded tool call in the role chunk",
			reply: func(t *testing.T) providertest.Reply {
				return providertest.Reply{Raw: readFixture(t, "tool-call-in-role-chunk.sse")}
			},
			wantCalls:  []provider.ToolCall{{ID: "call_4XzlGBLtUe9dy3GVNV4jhq7h", Name: "get_weather", Arguments: `{"city":"New York City"}`}},
			wantFinish: "tool_calls",
			wantUsage:  &provider.Usage{PromptTokens: 44, CompletionTokens: 16, TotalTokens: 60},
		},
		{
			name: "ollama whole calls, one chunk each with index",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{WholeCalls: true, Text: "Reading both.", ToolCalls: []providertest.Call{{ID: "w1", Name: "read_file", Args: `{"path":"a"}`}, {ID: "w2", Name: "read_file", Args: `{"path":"b"}`}}}
			},
			wantText:   "Reading both.",
			wantCalls:  []provider.ToolCall{{ID: "w1", Name: "read_file", Arguments: `{"path":"a"}`}, {ID: "w2", Name: "read_file", Arguments: `{"path":"b"}`}},
			wantFinish: "tool_calls",
		},
		{
			name: "legacy ollama whole calls in one delta without index",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{WholeCalls: true, NoIndex: true, ToolCalls: []providertest.Call{{ID: "w1", Name: "read_file", Args: `{"path":"a"}`}, {ID: "w2", Name: "read_file", Args: `{"path":"b"}`}}}
			},
			wantCalls:  []provider.ToolCall{{ID: "w1", Name: "read_file", Arguments: `{"path":"a"}`}, {ID: "w2", Name: "read_file", Arguments: `{"path":"b"}`}},
			wantFinish: "tool_calls",
		},
		{
			name: "ollama whole calls of the same tool without ids",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{Raw: []byte(
					`data: {"id":"chatcmpl-18","object":"chat.completion.chunk","created":1744446075,"model":"qwen2.5-coder","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"index":0,"type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},"finish_reason":null}]}` + "\n\n" +
						`data: {"id":"chatcmpl-18","object":"chat.completion.chunk","created":1744446075,"model":"qwen2.5-coder","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"index":1,"type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},"finish_reason":null}]}` + "\n\n" +
						`data: {"id":"chatcmpl-18","object":"chat.completion.chunk","created":1744446075,"model":"qwen2.5-coder","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"tool_calls"}]}` + "\n\n" +
						"data: [DONE]\n\n")}
			},
			wantCalls:  []provider.ToolCall{{ID: "*", Name: "bash", Arguments: `{"command":"ls"}`}, {ID: "*", Name: "bash", Arguments: `{"command":"ls"}`}},
			wantFinish: "tool_calls",
		},
		{
			name: "missing index",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{NoIndex: true, ToolCalls: []providertest.Call{{ID: "n1", Name: "bash", Args: bashArgs}, {ID: "n2", Name: "todo", Args: `{"items":[]}`}}}
			},
			wantCalls:  []provider.ToolCall{{ID: "n1", Name: "bash", Arguments: bashArgs}, {ID: "n2", Name: "todo", Arguments: `{"items":[]}`}},
			wantFinish: "tool_calls",
		},
		{
			name: "index reused with a new id",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{ReuseIndex: true, ToolCalls: []providertest.Call{{ID: "r1", Name: "bash", Args: bashArgs}, {ID: "r2", Name: "bash", Args: `{"command":"pwd"}`}}}
			},
			wantCalls:  []provider.ToolCall{{ID: "r1", Name: "bash", Arguments: bashArgs}, {ID: "r2", Name: "bash", Arguments: `{"command":"pwd"}`}},
			wantFinish: "tool_calls",
		},
		{
			name: "finish_reason stop on a tool turn",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{FinishReason: "stop", ToolCalls: []providertest.Call{{ID: "s1", Name: "bash", Args: bashArgs}}}
			},
			wantCalls:  []provider.ToolCall{{ID: "s1", Name: "bash", Arguments: bashArgs}},
			wantFinish: "tool_calls",
		},
		{
			name: "finish_reason missing on a tool turn",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{OmitFinish: true, ToolCalls: []providertest.Call{{ID: "m1", Name: "bash", Args: bashArgs}}}
			},
			wantCalls:  []provider.ToolCall{{ID: "m1", Name: "bash", Arguments: bashArgs}},
			wantFinish: "tool_calls",
		},
		{
			name: "reasoning kept out of the content",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{Reasoning: "The user greets me.", Text: "Hi!"}
			},
			wantText:   "Hi!",
			wantReason: "The user greets me.",
			wantFinish: "stop",
		},
		{
			name:       "no [DONE] after a finish reason",
			reply:      func(*testing.T) providertest.Reply { return providertest.Reply{Text: "fine, thanks", NoDone: true} },
			wantText:   "fine, thanks",
			wantFinish: "stop",
		},
		{
			name: "keep-alive comments before the answer",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{Raw: []byte(strings.Repeat(": PROCESSING\n\n", 400) +
					`data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"at "}}]}` + "\n\n" +
					`data: {"choices":[{"index":0,"delta":{"content":"last"},"finish_reason":"stop"}]}` + "\n\n" +
					"data: [DONE]\n\n")}
			},
			wantText:   "at last",
			wantFinish: "stop",
		},
		{
			name: "calls without id or name",
			reply: func(*testing.T) providertest.Reply {
				return providertest.Reply{Raw: []byte(
					`data: {"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"type":"function","function":{"name":"bash","arguments":"{\"command\":"}}]}}]}` + "\n\n" +
						`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"ls\"}"}}]}}]}` + "\n\n" +
						`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"type":"function","function":{"arguments":"{}"}}]}}]}` + "\n\n" +
						`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" +
						"data: [DONE]\n\n")}
			},
			wantCalls:  []provider.ToolCall{{ID: "*", Name: "bash", Arguments: `{"command":"ls"}`}, {ID: "*", Name: "", Arguments: "{}"}},
			wantFinish: "tool_calls",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(tt.reply(t))
			c := newClient(t, srv.URL, nil)
			var rec recorder
			resp, err := c.Stream(context.Background(), userRequest("hi"), rec.handler())
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			msg := resp.Message
			if msg.Role != provider.RoleAssistant || msg.Content != tt.wantText || msg.Reasoning != tt.wantReason {
				t.Errorf("message = %+v; want content %q, reasoning %q", msg, tt.wantText, tt.wantReason)
			}
			content, reasoning := rec.text()
			if content != tt.wantText || reasoning != tt.wantReason {
				t.Errorf("deltas gave content %q, reasoning %q", content, reasoning)
			}
			if tt.wantText != "" && len(rec.deltas) < 2 {
				t.Errorf("text came in %d deltas; want it streamed", len(rec.deltas))
			}
			checkCalls(t, msg.ToolCalls, tt.wantCalls)
			if resp.FinishReason != tt.wantFinish {
				t.Errorf("finish = %q, want %q", resp.FinishReason, tt.wantFinish)
			}
			if tt.wantUsage != nil && !reflect.DeepEqual(resp.Usage, tt.wantUsage) {
				t.Errorf("usage = %+v, want %+v", resp.Usage, tt.wantUsage)
			}
			if tt.wantUsage == nil && tt.reply(t).Raw == nil && (resp.Usage == nil || resp.Usage.TotalTokens == 0) {
				t.Errorf("usage missing: %+v", resp.Usage)
			}
			if len(rec.retries) != 0 || len(srv.Requests()) != 1 || len(srv.Errors()) != 0 {
				t.Errorf("retries %v, %d requests, server errors %v", rec.retries, len(srv.Requests()), srv.Errors())
			}
		})
	}
}

// checkCalls compares reassembled calls; a wanted id "*" must be a
// generated, unique "call_" id.
func checkCalls(t *testing.T, got, want []provider.ToolCall) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d calls %+v, want %d %+v", len(got), got, len(want), want)
	}
	seen := map[string]bool{}
	for i := range want {
		g, w := got[i], want[i]
		if w.ID == "*" {
			if !strings.HasPrefix(g.ID, "call_") || seen[g.ID] {
				t.Errorf("call %d: id %q is not a fresh generated id", i, g.ID)
			}
			w.ID = g.ID
		}
		seen[g.ID] = true
		if g != w {
			t.Errorf("call %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestRequestSentToServer(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "ok"})
	c, err := provider.New(provider.Config{BaseURL: srv.URL + "/"}) // no key: a dummy one is sent
	if err != nil {
		t.Fatal(err)
	}
	req := provider.Request{
		Messages: []provider.Message{
			{Role: provider.RoleSystem, Content: "be brief"},
			{Role: provider.RoleUser, Content: "list files"},
			{Role: provider.RoleAssistant, Reasoning: "use bash", ToolCalls: []provider.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`}, {ID: "c2", Name: "noargs"}, {ID: "c3", Arguments: "{}"}}},
			{Role: provider.RoleTool, ToolCallID: "c1", Content: "a\nb"},
			{Role: provider.RoleTool, ToolCallID: "c2"},
			{Role: provider.RoleTool, ToolCallID: "c3", Content: "Error: no tool name"},
			{Role: provider.RoleAssistant}, // empty: left out
			{Role: provider.RoleUser, Content: "thanks"},
		},
		Tools: []provider.ToolSpec{{Name: "bash", Description: "run", Parameters: []byte(`{"type":"object","properties":{"command":{"type":"string"}}}`)}, {Name: "noargs"}},
	}
	if _, err := c.Stream(context.Background(), req, provider.Handler{}); err != nil {
		t.Fatalf("Stream: %v (server errors %v)", err, srv.Errors())
	}
	got := srv.Requests()[0]
	if got.Model != provider.DefaultModel || !got.Stream || !got.IncludeUsage {
		t.Errorf("model %q stream %v include_usage %v", got.Model, got.Stream, got.IncludeUsage)
	}
	if !reflect.DeepEqual(got.Tools, []string{"bash", "noargs"}) || string(got.ToolSpecs[1].Parameters) != `{"type":"object","properties":{}}` {
		t.Errorf("tools %v %s", got.Tools, got.ToolSpecs[1].Parameters)
	}
	if auth := got.Header.Get("Authorization"); auth == "" || auth == "Bearer " {
		t.Errorf("no dummy key sent: %q", auth)
	}
	want := []providertest.Message{
		{Role: "system", Content: "be brief"},
		{Role: "user", Content: "list files"},
		{Role: "assistant", Reasoning: "use bash", ToolCalls: []providertest.Call{{ID: "c1", Name: "bash", Args: `{"command":"ls"}`}, {ID: "c2", Name: "noargs", Args: "{}"}, {ID: "c3", Name: "unnamed_tool", Args: "{}"}}},
		{Role: "tool", ToolCallID: "c1", Content: "a\nb"},
		{Role: "tool", ToolCallID: "c2", Content: "(no output)"},
		{Role: "tool", ToolCallID: "c3", Content: "Error: no tool name"},
		{Role: "user", Content: "thanks"},
	}
	if !reflect.DeepEqual(got.Messages, want) {
		t.Errorf("messages sent:\n%+v\nwant\n%+v", got.Messages, want)
	}
}

func TestOmitReasoning(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "ok"})
	c := newClient(t, srv.URL, func(c *provider.Config) { c.OmitReasoning = true })
	req := provider.Request{Messages: []provider.Message{
		{Role: provider.RoleUser, Content: "a"},
		{Role: provider.RoleAssistant, Content: "b", Reasoning: "secret"},
		{Role: provider.RoleUser, Content: "c"},
	}}
	if _, err := c.Stream(context.Background(), req, provider.Handler{}); err != nil {
		t.Fatal(err)
	}
	if body := string(srv.Requests()[0].Body); strings.Contains(body, "secret") {
		t.Errorf("reasoning sent despite OmitReasoning: %s", body)
	}
}

func TestServerRejectsUnansweredToolCall(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "never"})
	c := newClient(t, srv.URL, nil)
	req := provider.Request{Messages: []provider.Message{
		{Role: provider.RoleUser, Content: "run it"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_lost", Name: "bash", Arguments: "{}"}}},
		{Role: provider.RoleUser, Content: "hello?"},
	}}
	var rec recorder
	_, err := c.Stream(context.Background(), req, rec.handler())
	var ae *provider.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 || !strings.Contains(ae.Message, "call_lost") {
		t.Fatalf("err = %v; want a 400 naming call_lost", err)
	}
	if len(rec.retries) != 0 || len(srv.Requests()) != 1 {
		t.Errorf("a 400 was retried: %d requests", len(srv.Requests()))
	}
	if errs := srv.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "call_lost") {
		t.Errorf("server errors = %v", errs)
	}
}

func TestNewConfig(t *testing.T) {
	tests := []struct {
		name      string
		cfg       provider.Config
		wantErr   string
		wantModel string
		wantURL   string
	}{
		{"nothing set", provider.Config{}, "OPENAI_API_KEY", "", ""},
		{"key only", provider.Config{APIKey: "sk-x"}, "", provider.DefaultModel, provider.DefaultBaseURL},
		{"base url only", provider.Config{BaseURL: "http://localhost:11434/v1/", Model: "qwen3"}, "", "qwen3", "http://localhost:11434/v1"},
		{"bad base url", provider.Config{BaseURL: "localhost:11434"}, "http://", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := provider.New(tt.cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Model() != tt.wantModel || c.BaseURL() != tt.wantURL {
				t.Errorf("model %q url %q", c.Model(), c.BaseURL())
			}
		})
	}
	if _, err := provider.New(provider.Config{}); !errors.Is(err, provider.ErrNoConfig) || !strings.Contains(err.Error(), "OPENAI_BASE_URL") {
		t.Errorf("err = %v, want ErrNoConfig mentioning OPENAI_BASE_URL too", err)
	}
}
