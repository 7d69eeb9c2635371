package providertest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

func TestValidation(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"unanswered tool call", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}}]},{"role":"user","content":"again"}]}`, "c1"},
		{"orphan tool message", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c9","content":"x"}]}`, "must be a response"},
		{"empty messages", `{"model":"m","stream":true,"messages":[]}`, "too short"},
		{"no model", `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`, "model"},
		{"arguments missing", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash"}}]},{"role":"tool","tool_call_id":"c1","content":"x"}]}`, "arguments"},
		{"bad tool name", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a b"}}]}`, "tools[0].function.name"},
		{"stream options without stream", `{"model":"m","stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`, "stream_options"},
		{"not json", `{"model":`, "parse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(providertest.Reply{Text: "never"})
			r := post(t, context.Background(), srv.URL, tt.body)
			if r.status != 400 || !strings.Contains(r.body, tt.want) {
				t.Errorf("got %d %s; want 400 naming %q", r.status, r.body, tt.want)
			}
			if errs := srv.Errors(); len(errs) != 1 || !strings.Contains(errs[0], tt.want) {
				t.Errorf("Errors() = %v", errs)
			}
			if srv.Pending() != 1 {
				t.Errorf("an invalid request consumed a reply")
			}
		})
	}
}

func TestValidConversationAccepted(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "ok"})
	body := `{"model":"m","stream":true,"messages":[{"role":"system","content":"s"},{"role":"user","content":"hi"},` +
		`{"role":"assistant","content":"let me","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"read_file","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c2","content":"b"},{"role":"tool","tool_call_id":"c1","content":[{"type":"text","text":"a"}]},{"role":"user","content":"next"}],` +
		`"tools":[{"type":"function","function":{"name":"bash","parameters":{"type":"object"}}}]}`
	r := post(t, context.Background(), srv.URL, body)
	if r.status != 200 || r.text() != "ok" {
		t.Fatalf("got %d %q %s", r.status, r.text(), r.body)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	got := reqs[0]
	if got.Model != "m" || !got.Stream || len(got.Messages) != 6 || got.Tools[0] != "bash" || got.LastUser() != "next" {
		t.Errorf("decoded %+v", got)
	}
	if m := got.Messages[2]; len(m.ToolCalls) != 2 || m.ToolCalls[1].Name != "read_file" || m.Content != "let me" {
		t.Errorf("assistant message decoded as %+v", m)
	}
	if m := got.Messages[4]; m.ToolCallID != "c1" || m.Content != "a" {
		t.Errorf("tool message decoded as %+v", m)
	}
}
