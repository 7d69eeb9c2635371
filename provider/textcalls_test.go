package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// textTools are the tools offered while calls written as text are read.
var textTools = []provider.ToolSpec{
	{Name: "bash", Description: "run", Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"},"timeout":{"type":"integer"}}}`)},
	{Name: "read_file", Description: "read", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
}

func TestToolCallsWrittenAsText(t *testing.T) {
	type call struct{ name, args string }
	tests := []struct {
		name      string
		text      string
		wantText  string
		wantCalls []call
		format    string
	}{
		{
			name:      "hermes, one call after text",
			text:      "Let me look.\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls -la\"}}\n</tool_call>",
			wantText:  "Let me look.\n",
			wantCalls: []call{{"bash", `{"command": "ls -la"}`}},
			format:    provider.FormatHermes,
		},
		{
			name:      "hermes, two calls, the last closing tag missing",
			text:      "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"b.go\"}}",
			wantCalls: []call{{"read_file", `{"path": "a.go"}`}, {"read_file", `{"path": "b.go"}`}},
			format:    provider.FormatHermes,
		},
		{
			name:      "hermes with slightly broken arguments",
			text:      "<tool_call>\n{\"name\": \"bash\", \"arguments\": {'command': 'go test ./...',}}\n</tool_call>",
			wantCalls: []call{{"bash", `{"command": "go test ./..."}`}},
			format:    provider.FormatHermes,
		},
		{
			name:      "qwen3-coder xml",
			text:      "<tool_call>\n<function=bash>\n<parameter=command>\ngrep -n \"func main\" *.go\n</parameter>\n<parameter=timeout>\n30\n</parameter>\n</function>\n</tool_call>",
			wantCalls: []call{{"bash", `{"command":"grep -n \"func main\" *.go","timeout":30}`}},
			format:    provider.FormatQwenXML,
		},
		{
			name:      "mistral array",
			text:      `[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "go.mod"}}]`,
			wantCalls: []call{{"read_file", `{"path": "go.mod"}`}},
			format:    provider.FormatMistral,
		},
		{
			name:      "mistral v11 name[ARGS]",
			text:      `[TOOL_CALLS]bash[ARGS]{"command": "pwd"}`,
			wantCalls: []call{{"bash", `{"command": "pwd"}`}},
			format:    provider.FormatMistral,
		},
		{
			name:      "llama 3.1 whole message",
			text:      `{"name": "bash", "parameters": {"command": "go version"}}`,
			wantCalls: []call{{"bash", `{"command": "go version"}`}},
			format:    provider.FormatLlamaJSON,
		},
		{
			name:      "llama 3.1 with python tag",
			text:      `<|python_tag|>{"type": "function", "name": "read_file", "parameters": {"path": "x"}}`,
			wantCalls: []call{{"read_file", `{"path": "x"}`}},
			format:    provider.FormatLlamaJSON,
		},
		{
			// vLLM's hermes_tool_parser.py keeps only the text before
			// the first <tool_call> as content: what follows the calls
			// was written before they ran, and is dropped.
			name:      "text after the call is dropped",
			text:      "<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call> and then I will fix it.",
			wantCalls: []call{{"bash", `{"command": "ls"}`}},
			format:    provider.FormatHermes,
		},
		// Not calls: left as the answer, whole.
		{name: "a tool that does not exist", text: "<tool_call>\n{\"name\": \"rm_everything\", \"arguments\": {}}\n</tool_call>", wantText: "<tool_call>\n{\"name\": \"rm_everything\", \"arguments\": {}}\n</tool_call>"},
		{name: "a json example in an explanation", text: "Call it like this:\n```json\n{\"name\": \"bash\", \"parameters\": {\"command\": \"ls\"}}\n```", wantText: "Call it like this:\n```json\n{\"name\": \"bash\", \"parameters\": {\"command\": \"ls\"}}\n```"},
		{name: "a json answer", text: `{"name": "bash", "version": 5}`, wantText: `{"name": "bash", "version": 5}`},
		{name: "a cut argument string", text: "<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"echo hal", wantText: "<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"echo hal"},
		{name: "markers mentioned in prose", text: "The model writes [TOOL_CALLS] or <tool_call> tags.", wantText: "The model writes [TOOL_CALLS] or <tool_call> tags."},
		{name: "plain answer", text: "All done: 3 files changed.", wantText: "All done: 3 files changed."},
	}
	for _, tt := range tests {
		for _, size := range []int{1, 3, 7, 1 << 20} {
			t.Run(fmt.Sprintf("%s/chunks of %d", tt.name, size), func(t *testing.T) {
				srv := providertest.New(t)
				srv.Enqueue(providertest.Reply{Text: tt.text, ChunkSize: size})
				var rec recorder
				req := userRequest("go")
				req.Tools = textTools
				resp, err := newClient(t, srv.URL, nil).Stream(context.Background(), req, rec.handler())
				if err != nil {
					t.Fatalf("Stream: %v", err)
				}
				if resp.Message.Content != tt.wantText {
					t.Errorf("content %q, want %q", resp.Message.Content, tt.wantText)
				}
				if shown, _ := rec.text(); shown != tt.wantText {
					t.Errorf("streamed %q, want %q", shown, tt.wantText)
				}
				if resp.Recovered != tt.format {
					t.Errorf("recovered %q, want %q", resp.Recovered, tt.format)
				}
				var got []call
				for _, c := range resp.Message.ToolCalls {
					if c.ID == "" {
						t.Errorf("call %s without an id", c.Name)
					}
					got = append(got, call{c.Name, c.Arguments})
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.wantCalls) {
					t.Errorf("calls %v, want %v", got, tt.wantCalls)
				}
				if len(tt.wantCalls) > 0 && resp.FinishReason != "tool_calls" {
					t.Errorf("finish %q, want tool_calls", resp.FinishReason)
				}
			})
		}
	}
}

func TestTextCallsNeedOfferedTools(t *testing.T) {
	srv := providertest.New(t)
	text := `{"name": "bash", "parameters": {"command": "ls"}}`
	srv.Enqueue(providertest.Reply{Text: text})
	resp, err := newClient(t, srv.URL, nil).Stream(context.Background(), userRequest("go"), provider.Handler{})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != text || len(resp.Message.ToolCalls) != 0 || strings.Contains(resp.Recovered, "Llama") {
		t.Errorf("without tools on offer the text must stay text: %+v", resp)
	}
}
