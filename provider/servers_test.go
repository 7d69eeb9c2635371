package provider_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// bodyOf decodes a request body into its top-level fields and messages.
func bodyOf(t *testing.T, body []byte) (map[string]json.RawMessage, []map[string]json.RawMessage) {
	t.Helper()
	var top map[string]json.RawMessage
	var msgs []map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		t.Fatalf("decode the request body: %v", err)
	}
	if err := json.Unmarshal(top["messages"], &msgs); err != nil {
		t.Fatalf("decode the messages: %v", err)
	}
	return top, msgs
}

// reasoningFields returns the reasoning fields of a message, by name.
func reasoningFields(m map[string]json.RawMessage) map[string]string {
	out := map[string]string{}
	for _, k := range []string{"reasoning", "reasoning_content"} {
		if v, ok := m[k]; ok {
			out[k] = string(v)
		}
	}
	return out
}

func TestReasoningSentBackPerServer(t *testing.T) {
	history := []provider.Message{
		{Role: provider.RoleUser, Content: "list"},
		{Role: provider.RoleAssistant, Reasoning: "use ls", ToolCalls: []provider.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`}}},
		{Role: provider.RoleTool, ToolCallID: "c1", Content: "a b"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c2", Name: "bash", Arguments: `{"command":"pwd"}`}}},
		{Role: provider.RoleTool, ToolCallID: "c2", Content: "/w"},
		{Role: provider.RoleAssistant, Content: "done", Reasoning: "all listed"},
		{Role: provider.RoleUser, Content: "thanks"},
	}
	none := map[string]string{}
	tests := []struct {
		server provider.Server
		want   []map[string]string // for the three assistant messages
	}{
		{provider.ServerUnknown, []map[string]string{{"reasoning_content": `"use ls"`}, none, {"reasoning_content": `"all listed"`}}},
		{provider.ServerOpenAI, []map[string]string{none, none, none}},
		{provider.ServerOllama, []map[string]string{{"reasoning": `"use ls"`}, none, {"reasoning": `"all listed"`}}},
		{provider.ServerOpenRouter, []map[string]string{{"reasoning": `"use ls"`}, none, {"reasoning": `"all listed"`}}},
		{provider.ServerLlamaCpp, []map[string]string{{"reasoning_content": `"use ls"`}, none, {"reasoning_content": `"all listed"`}}},
		{provider.ServerVLLM, []map[string]string{{"reasoning": `"use ls"`, "reasoning_content": `"use ls"`}, none, {"reasoning": `"all listed"`, "reasoning_content": `"all listed"`}}},
		{provider.ServerDeepSeek, []map[string]string{{"reasoning_content": `"use ls"`}, {"reasoning_content": `""`}, {"reasoning_content": `"all listed"`}}},
	}
	for _, tt := range tests {
		t.Run(string(tt.server)+"_", func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(providertest.Reply{Text: "ok"})
			c := newClient(t, srv.URL, func(c *provider.Config) { c.Server = tt.server })
			if _, err := c.Stream(context.Background(), provider.Request{Messages: history}, provider.Handler{}); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			_, msgs := bodyOf(t, srv.Requests()[0].Body)
			var got []map[string]string
			for _, m := range msgs {
				if string(m["role"]) == `"assistant"` {
					got = append(got, reasoningFields(m))
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("reasoning fields of the assistant messages: %v, want %v", got, tt.want)
			}
		})
	}
}

func TestServerOf(t *testing.T) {
	tests := map[string]provider.Server{
		"https://api.openai.com/v1":    provider.ServerOpenAI,
		"https://api.deepseek.com/v1":  provider.ServerDeepSeek,
		"https://openrouter.ai/api/v1": provider.ServerOpenRouter,
		"http://127.0.0.1:11434/v1":    provider.ServerOllama,
		"http://localhost:8080/v1":     provider.ServerLlamaCpp,
		"http://gpu-box:8000/v1":       provider.ServerVLLM,
		"http://127.0.0.1:1234/v1":     provider.ServerLMStudio,
		"https://example.com/v1":       provider.ServerUnknown,
		"::not a url":                  provider.ServerUnknown,
	}
	for url, want := range tests {
		if got := provider.ServerOf(url); got != want {
			t.Errorf("ServerOf(%q) = %q, want %q", url, got, want)
		}
	}
	c, err := provider.New(provider.Config{BaseURL: "http://127.0.0.1:11434/v1", Server: "my-box"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Server() != provider.ServerOllama {
		t.Errorf("a server name tick does not know gives %q, want the guess from the URL", c.Server())
	}
}

func TestEffortPerServer(t *testing.T) {
	tests := []struct {
		server provider.Server
		effort provider.Effort
		want   map[string]string // top-level fields, as JSON
	}{
		{provider.ServerOpenAI, provider.EffortDefault, map[string]string{}},
		{provider.ServerOpenAI, provider.EffortHigh, map[string]string{"reasoning_effort": `"high"`}},
		{provider.ServerOllama, provider.EffortOff, map[string]string{"reasoning_effort": `"none"`}},
		{provider.ServerOllama, provider.EffortLow, map[string]string{"reasoning_effort": `"low"`}},
		{provider.ServerDeepSeek, provider.EffortOff, map[string]string{"thinking": `{"type":"disabled"}`}},
		{provider.ServerVLLM, provider.EffortOff, map[string]string{"chat_template_kwargs": `{"enable_thinking":false}`}},
		{provider.ServerVLLM, provider.EffortMedium, map[string]string{"chat_template_kwargs": `{"enable_thinking":true}`, "reasoning_effort": `"medium"`}},
		{provider.ServerLlamaCpp, provider.EffortHigh, map[string]string{"chat_template_kwargs": `{"enable_thinking":true,"reasoning_effort":"high"}`}},
		{provider.ServerLlamaCpp, provider.EffortOff, map[string]string{"chat_template_kwargs": `{"enable_thinking":false}`}},
	}
	for _, tt := range tests {
		t.Run(string(tt.server)+"_"+string(tt.effort), func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(providertest.Reply{Text: "ok"})
			c := newClient(t, srv.URL, func(c *provider.Config) { c.Server = tt.server })
			req := userRequest("hi")
			req.Effort = tt.effort
			if _, err := c.Stream(context.Background(), req, provider.Handler{}); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			top, _ := bodyOf(t, srv.Requests()[0].Body)
			got := map[string]string{}
			for _, k := range []string{"reasoning_effort", "thinking", "chat_template_kwargs", "think"} {
				if v, ok := top[k]; ok {
					got[k] = string(v)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("thinking fields %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEffortRefusedOnce(t *testing.T) {
	srv := providertest.New(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.Contains(string(r.Body), "reasoning_effort") {
			return providertest.Reply{Status: 400, Body: `{"error":{"message":"Unrecognized request argument supplied: reasoning_effort","type":"invalid_request_error","param":null,"code":null}}`}
		}
		return providertest.Reply{Text: "ok"}
	})
	c := newClient(t, srv.URL, func(c *provider.Config) { c.Server = provider.ServerOpenAI })
	var notices []string
	h := provider.Handler{OnNotice: func(s string) { notices = append(notices, s) }}
	for range 2 {
		req := userRequest("hi")
		req.Effort = provider.EffortHigh
		resp, err := c.Stream(context.Background(), req, h)
		if err != nil || resp.Message.Content != "ok" {
			t.Fatalf("Stream: %v, %+v", err, resp)
		}
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3 (refused, without, without)", n)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "high") {
		t.Errorf("notices %q, want one naming the level", notices)
	}
}

func TestOtherBadRequestKeepsEffort(t *testing.T) {
	srv := providertest.New(t)
	bad := providertest.Reply{Status: 400, Body: `{"error":{"message":"messages: the history is not valid","type":"invalid_request_error","param":null,"code":null}}`}
	srv.Enqueue(bad, bad, providertest.Reply{Text: "ok"})
	c := newClient(t, srv.URL, func(c *provider.Config) { c.Server = provider.ServerOpenAI })
	var notices []string
	h := provider.Handler{OnNotice: func(s string) { notices = append(notices, s) }}
	req := userRequest("hi")
	req.Effort = provider.EffortLow
	if _, err := c.Stream(context.Background(), req, h); provider.KindOf(err) != provider.KindBadRequest {
		t.Fatalf("Stream: %v, want the 400", err)
	}
	if len(notices) != 0 {
		t.Errorf("notices %q: the thinking level was not what the server refused", notices)
	}
	if _, err := c.Stream(context.Background(), req, h); err != nil {
		t.Fatal(err)
	}
	if body := string(srv.Requests()[2].Body); !strings.Contains(body, "reasoning_effort") {
		t.Errorf("the level was dropped after a 400 that was not about it: %s", body)
	}
}
