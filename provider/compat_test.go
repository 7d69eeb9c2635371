package provider_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

func TestNonStreamingServer(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantText  string
		wantCalls int
		wantErr   bool
	}{
		{
			name:     "text answer",
			body:     `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"whole answer"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`,
			wantText: "whole answer",
		},
		{
			name:      "tool calls",
			body:      `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"todo","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			wantCalls: 2,
		},
		{name: "error object with status 200", body: `{"error":{"message":"no such model"}}`, wantErr: true},
		{name: "something else", body: `{"hello":"world"}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(providertest.Reply{Body: tt.body})
			c := newClient(t, srv.URL, nil)
			var rec recorder
			resp, err := c.Stream(context.Background(), userRequest("hi"), rec.handler())
			if tt.wantErr {
				if err == nil {
					t.Fatalf("no error for %s", tt.body)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Content != tt.wantText || len(resp.Message.ToolCalls) != tt.wantCalls {
				t.Errorf("got %+v", resp.Message)
			}
			if content, _ := rec.text(); content != tt.wantText {
				t.Errorf("delta text %q", content)
			}
		})
	}
}

func TestStreamOptionsRefused(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		providertest.Reply{Status: 400, Body: `{"error":{"message":"Unrecognized request argument supplied: stream_options"}}`},
		providertest.Reply{Text: "first"},
		providertest.Reply{Text: "second"},
	)
	c := newClient(t, srv.URL, nil)
	for _, want := range []string{"first", "second"} {
		resp, err := c.Stream(context.Background(), userRequest("hi"), provider.Handler{})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Message.Content != want {
			t.Errorf("content %q, want %q", resp.Message.Content, want)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || !reqs[0].IncludeUsage || reqs[1].IncludeUsage || reqs[2].IncludeUsage {
		t.Errorf("want stream_options dropped after the refusal; requests: %d", len(reqs))
	}
}

func TestOther400MentioningNothingIsNotRepeated(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Status: 400, Body: `{"error":{"message":"context too long"}}`}, providertest.Reply{Text: "never"})
	c := newClient(t, srv.URL, nil)
	_, err := c.Stream(context.Background(), userRequest("hi"), provider.Handler{})
	var ae *provider.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 400 || len(srv.Requests()) != 1 {
		t.Errorf("err %v after %d requests", err, len(srv.Requests()))
	}
}
