package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
	"github.com/tick-agent/tick/provider/providertest"
)

// formatTools are the tools offered while the formats are read.
var formatTools = []ToolSpec{
	{Name: "bash", Description: "run", Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"},"timeout":{"type":"integer"}}}`)},
	{Name: "read_file", Description: "read", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
}

// markup is what never shows in the answer when a format was read.
var markup = []string{"<tool_call", "</tool_call", "<|", "|>", "<｜", "[TOOL_", "<minimax", "<invoke", "<function=", "<think>", "</think>", "<arg_key>", "```json"}

// formatCase is a model's output as a server that does not parse it
// streams it (the source of each is in testdata/local/README.md), and
// what tick makes of it.
type formatCase struct {
	name      string
	text      string
	wantText  string
	reasoning string // the reasoning to expect, when it is not ""
	calls     []string
	format    string
	asText    bool // not calls: the text stays the answer as it is
}

// formatCases: one per format and variant.
var formatCases = []formatCase{
	{name: "harmony analysis and final", text: "<|channel|>analysis<|message|>User asks: \"What is 2 + 2?\" Simple arithmetic.<|end|><|start|>assistant<|channel|>final<|message|>2 + 2 = 4.<|return|>",
		wantText: "2 + 2 = 4.", reasoning: "User asks: \"What is 2 + 2?\" Simple arithmetic."},
	{name: "harmony call", text: "<|channel|>analysis<|message|>Need to use function bash.<|end|><|start|>assistant<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{\"command\":\"ls\"}<|call|>",
		reasoning: "Need to use function bash.", calls: []string{`bash {"command":"ls"}`}, format: FormatHarmony},
	{name: "harmony recipient in the role", text: "<|channel|>analysis<|message|>Read it.<|end|><|start|>assistant to=functions.read_file<|channel|>commentary json<|message|>{\"path\": \"go.mod\"}<|call|>",
		reasoning: "Read it.", calls: []string{`read_file {"path": "go.mod"}`}, format: FormatHarmony},
	{name: "harmony preamble then call", text: "<|channel|>analysis<|message|>Plan first.<|end|><|start|>assistant<|channel|>commentary<|message|>**Action plan**: read go.mod.<|end|><|start|>assistant<|channel|>commentary to=functions.read_file<|constrain|>json<|message|>{\"path\":\"go.mod\"}<|call|>",
		wantText: "**Action plan**: read go.mod.", reasoning: "Plan first.", calls: []string{`read_file {"path":"go.mod"}`}, format: FormatHarmony},
	{name: "harmony name glued to json", text: "<|channel|>commentary to=functions.bashjson<|message|>{\"command\":\"pwd\"}<|call|>",
		calls: []string{`bash {"command":"pwd"}`}, format: FormatHarmony},
	{name: "harmony call of a tool not offered", text: "<|channel|>analysis<|message|>Search.<|end|><|start|>assistant<|channel|>commentary to=functions.rm_rf <|constrain|>json<|message|>{\"path\":\"/\"}<|call|>"},
	{name: "glm-4.5", text: "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls -la</arg_value>\n<arg_key>timeout</arg_key>\n<arg_value>30</arg_value>\n</tool_call>",
		calls: []string{`bash {"command":"ls -la","timeout":30}`}, format: FormatGLM},
	{name: "glm-4.6 after thoughts", text: "<think>Need the file.</think>\n<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.txt</arg_value>\n</tool_call>",
		reasoning: "Need the file.", calls: []string{`read_file {"path":"a.txt"}`}, format: FormatGLM},
	{name: "glm-4.7 compact", text: "<tool_call>bash<arg_key>command</arg_key><arg_value>pwd</arg_value></tool_call>",
		calls: []string{`bash {"command":"pwd"}`}, format: FormatGLM},
	{name: "gemma 4 thought and call", text: "<|channel>thought\nThe user wants the files.<channel|><|tool_call>call:bash{command:<|\"|>ls -la<|\"|>,timeout:30}<tool_call|>",
		reasoning: "The user wants the files.", calls: []string{`bash {"command":"ls -la","timeout":30}`}, format: FormatGemma},
	{name: "gemma 4 thought and answer", text: "<|channel>thought\nEasy.<channel|>It is 4.", wantText: "It is 4.", reasoning: "Easy."},
	{name: "gemma 4 two calls", text: "<|tool_call>call:read_file{path:<|\"|>a.go<|\"|>}<tool_call|><|tool_call>call:read_file{path:<|\"|>b.go<|\"|>}<tool_call|>",
		calls: []string{`read_file {"path":"a.go"}`, `read_file {"path":"b.go"}`}, format: FormatGemma},
	{name: "kimi-k2", text: "I'll look.<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{\"path\": \"a.go\"}<|tool_call_end|><|tool_call_begin|>functions.bash:1<|tool_call_argument_begin|>{\"command\": \"ls\"}<|tool_call_end|><|tool_calls_section_end|>",
		wantText: "I'll look.", calls: []string{`read_file {"path": "a.go"}`, `bash {"command": "ls"}`}, format: FormatKimi},
	{name: "kimi-k2 singular section", text: "<|tool_call_section_begin|><|tool_call_begin|>bash:0<|tool_call_argument_begin|>{\"command\": \"pwd\"}<|tool_call_end|><|tool_call_section_end|>",
		calls: []string{`bash {"command": "pwd"}`}, format: FormatKimi},
	{name: "deepseek v3", text: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>bash\n```json\n{\"command\": \"ls\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>",
		calls: []string{`bash {"command": "ls"}`}, format: FormatDeepSeekV3},
	{name: "deepseek v3.1", text: "Let me read it.\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{\"path\": \"x\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		wantText: "Let me read it.\n\n", calls: []string{`read_file {"path": "x"}`}, format: FormatDeepSeek31},
	{name: "minimax-m2", text: "<think>Run the tests.</think>\n\n<minimax:tool_call>\n<invoke name=\"bash\">\n<parameter name=\"command\">go test ./...</parameter>\n<parameter name=\"timeout\">120</parameter>\n</invoke>\n</minimax:tool_call>",
		reasoning: "Run the tests.", calls: []string{`bash {"command":"go test ./...","timeout":120}`}, format: FormatMiniMax},
	{name: "granite 3.0", text: "<|tool_call|>[{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}]",
		calls: []string{`bash {"command": "ls"}`}, format: FormatGranite},
	{name: "granite 3.1", text: "<tool_call>[{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}, {\"name\": \"read_file\", \"arguments\": {\"path\": \"b\"}}]",
		calls: []string{`read_file {"path": "a"}`, `read_file {"path": "b"}`}, format: FormatGranite},
	{name: "granite bare list", text: "[{\"name\": \"read_file\", \"arguments\": {\"path\": \"x\"}}]",
		calls: []string{`read_file {"path": "x"}`}, format: FormatGranite},
	{name: "pythonic", text: "[read_file(path=\"a.txt\"), bash(command='ls -la', timeout=30)]",
		calls: []string{`read_file {"path":"a.txt"}`, `bash {"command":"ls -la","timeout":30}`}, format: FormatPythonic},
	{name: "lfm2", text: "<|tool_call_start|>[bash(command=\"ls\")]<|tool_call_end|>Checking the files.",
		calls: []string{`bash {"command":"ls"}`}, format: FormatLFM2},
	{name: "lm studio", text: "[TOOL_REQUEST]{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}[END_TOOL_REQUEST]",
		calls: []string{`bash {"command": "ls"}`}, format: FormatLMStudio},
	{name: "qwen3-coder without <tool_call>", text: "<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>",
		calls: []string{`bash {"command":"ls"}`}, format: FormatQwenXML},
	{name: "qwen3-coder missing </parameter>", text: "<tool_call>\n<function=bash>\n<parameter=command>\nls -la\n<parameter=timeout>\n30\n</function>\n</tool_call>",
		calls: []string{`bash {"command":"ls -la","timeout":30}`}, format: FormatQwenXML},
	{name: "llama 3 calls separated by ;", text: "{\"name\": \"read_file\", \"parameters\": {\"path\": \"a\"}}; {\"name\": \"read_file\", \"parameters\": {\"path\": \"b\"}}",
		calls: []string{`read_file {"path": "a"}`, `read_file {"path": "b"}`}, format: FormatLlamaJSON},
	{name: "whole message in a json fence", text: "```json\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n```",
		calls: []string{`bash {"command": "ls"}`}, format: FormatFencedJSON},
	{name: "mistral name[CALL_ID]id[ARGS]", text: "[TOOL_CALLS]bash[CALL_ID]a1b2c3d4e[ARGS]{\"command\": \"pwd\"}",
		calls: []string{`bash {"command": "pwd"}`}, format: FormatMistral},
	{name: "preamble, then a call", text: "I'll check the module first.\n\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"go.mod\"}}\n</tool_call>",
		wantText: "I'll check the module first.\n\n", calls: []string{`read_file {"path": "go.mod"}`}, format: FormatHermes},
	{name: "a call after the marker in inline code", text: "The `<tool_call>` tag comes next.\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>",
		wantText: "The `<tool_call>` tag comes next.\n", calls: []string{`bash {"command": "ls"}`}, format: FormatHermes},
	{name: "a call hallucinating its result", text: "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>\n<tool_response>\na.go\n</tool_response>\nThere is one file.",
		calls: []string{`bash {"command": "ls"}`}, format: FormatHermes},
	{name: "a call inside unclosed thoughts", text: "<think>I should list the files.\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>\n",
		calls: []string{`bash {"command": "ls"}`}, format: FormatHermes + inThoughts},
	// Not calls: the text stays the answer.
	{name: "mistral [ARGS] of a tool not offered", text: "[TOOL_CALLS]rm_everything[ARGS]{\"path\": \"/\"}", asText: true},
	{name: "kimi call of a tool not offered", text: "<|tool_calls_section_begin|><|tool_call_begin|>functions.rm_rf:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>", asText: true},
	{name: "a call in a fence in prose", text: "Write it like this:\n```\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>\n```\nThat is all.", asText: true},
	{name: "a call in a tilde fence", text: "Example:\n~~~\n[TOOL_CALLS]bash[ARGS]{\"command\": \"ls\"}\n~~~\n", asText: true},
	{name: "a call in inline code", text: "Use `<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>` to call it.", asText: true},
	{name: "a call in double backticks", text: "Write ``[TOOL_REQUEST]{\"name\": \"bash\", \"arguments\": {}}[END_TOOL_REQUEST]`` and wait.", asText: true},
	{name: "a list answer", text: "[1, 2, 3] is the list.", asText: true},
	{name: "a link first", text: "[the docs](https://example.com) say so.", asText: true},
	{name: "a pythonic call of a tool not offered", text: "[rm(path=\"/\")]", asText: true},
	{name: "a go fence", text: "```go\nfmt.Println(1)\n```\nPrints 1.", asText: true},
	{name: "a json fence then prose", text: "```json\n{\"name\": \"bash\", \"version\": 5}\n```\nThat is the manifest.", asText: true},
	{name: "a fenced call explained", text: "```json\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n```\nThis is how a call looks.", asText: true},
	{name: "a cut gemma call", text: "<|tool_call>call:bash{command:<|\"|>echo hal", asText: true},
}

func TestFormatsStreamed(t *testing.T) {
	for _, tt := range formatCases {
		for _, size := range []int{1, 2, 3, 5, 7, 1 << 20} {
			t.Run(fmt.Sprintf("%s/chunks of %d", tt.name, size), func(t *testing.T) {
				srv := providertest.New(t)
				srv.Enqueue(providertest.Reply{Text: tt.text, ChunkSize: size})
				var shown, thought strings.Builder
				c := formatClient(t, srv.URL)
				req := Request{Messages: []Message{{Role: RoleUser, Content: "go"}}, Tools: formatTools}
				resp, err := c.Stream(context.Background(), req, Handler{OnDelta: func(d Delta) {
					if d.Rethought {
						shown.Reset()
					}
					shown.WriteString(d.Content)
					thought.WriteString(d.Reasoning)
				}})
				if err != nil {
					t.Fatalf("Stream: %v", err)
				}
				checkFormat(t, tt, resp.Message, resp.Recovered, shown.String())
				if tt.reasoning != "" && !strings.Contains(thought.String(), tt.reasoning) {
					t.Errorf("streamed reasoning %q, want it to hold %q", thought.String(), tt.reasoning)
				}
				if size == 1 {
					sendBack(t, srv, c, req, resp.Message)
				}
			})
		}
	}
}

// TestFormatsEverySplit feeds each case to the accumulator cut in two at
// every byte, and byte by byte.
func TestFormatsEverySplit(t *testing.T) {
	for _, tt := range formatCases {
		t.Run(tt.name, func(t *testing.T) {
			for cut := 0; cut <= len(tt.text); cut++ {
				msg, recovered, shown := accumulate(tt.text[:cut], tt.text[cut:])
				checkFormat(t, tt, msg, recovered, shown)
				if t.Failed() {
					t.Fatalf("cut at %d", cut)
				}
			}
			bytes := make([]string, len(tt.text))
			for i := 0; i < len(tt.text); i++ {
				bytes[i] = tt.text[i : i+1]
			}
			msg, recovered, shown := accumulate(bytes...)
			checkFormat(t, tt, msg, recovered, shown)
		})
	}
}

// accumulate feeds pieces of content to an accumulator with the format
// tools offered and returns the message, the recovered format and the
// text shown.
func accumulate(pieces ...string) (Message, string, string) {
	a := newAccumulator(DefaultMaxArgs)
	a.tools = formatTools
	var shown strings.Builder
	for _, p := range pieces {
		ch := openai.ChatCompletionStreamChoice{Delta: openai.ChatCompletionStreamChoiceDelta{Content: p}}
		d, _ := a.add(&openai.ChatCompletionStreamResponse{Choices: []openai.ChatCompletionStreamChoice{ch}})
		if d.Rethought {
			shown.Reset()
		}
		shown.WriteString(d.Content)
	}
	shown.WriteString(a.flush().Content)
	n := 0
	r := a.response(func() string { n++; return fmt.Sprintf("call_%d", n) })
	return r.Message, r.Recovered, shown.String()
}

// checkFormat checks what came of a case: the answer in the message and
// as shown, the calls and their format.
func checkFormat(t *testing.T, tt formatCase, msg Message, recovered, shown string) {
	t.Helper()
	want := tt.wantText
	if tt.asText {
		want = tt.text
	}
	if msg.Content != want || shown != want {
		t.Errorf("content %q, shown %q, want %q", msg.Content, shown, want)
	}
	if tt.reasoning != "" && (msg.Reasoning != tt.reasoning && !strings.Contains(msg.Reasoning, tt.reasoning) || strings.Contains(msg.Content, tt.reasoning)) {
		t.Errorf("reasoning %q with content %q, want the reasoning %q apart", msg.Reasoning, msg.Content, tt.reasoning)
	}
	for _, m := range markup {
		if !tt.asText && strings.Contains(msg.Content, m) && !strings.Contains(want, m) {
			t.Errorf("the answer %q shows the markup %q", msg.Content, m)
		}
	}
	var got []string
	for _, c := range msg.ToolCalls {
		var obj map[string]any
		if c.ID == "" || json.Unmarshal([]byte(c.Arguments), &obj) != nil {
			t.Errorf("call %s %q: no id or arguments that are not a JSON object", c.Name, c.Arguments)
		}
		got = append(got, c.Name+" "+c.Arguments)
	}
	if fmt.Sprint(got) != fmt.Sprint(tt.calls) || recovered != tt.format {
		t.Errorf("calls %q (%q), want %q (%q)", got, recovered, tt.calls, tt.format)
	}
}

func formatClient(t *testing.T, url string) *Client {
	t.Helper()
	c, err := New(Config{APIKey: "sk-test", BaseURL: url, Model: "local-model"})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// sendBack sends the answer back in the history, with a result for each
// call: the server must take it (valid calls and ids, no markup).
func sendBack(t *testing.T, srv *providertest.Server, c *Client, req Request, msg Message) {
	t.Helper()
	req.Messages = append(req.Messages, msg)
	for _, tc := range msg.ToolCalls {
		req.Messages = append(req.Messages, Message{Role: RoleTool, ToolCallID: tc.ID, Content: "ok"})
	}
	if len(msg.ToolCalls) == 0 {
		req.Messages = append(req.Messages, Message{Role: RoleUser, Content: "and?"})
	}
	srv.Enqueue(providertest.Reply{Text: "done"})
	if _, err := c.Stream(context.Background(), req, Handler{}); err != nil {
		t.Fatalf("the server refused the history: %v", err)
	}
}

// TestTextThatCannotBeACallStreams: text held while it may be a call is
// shown as soon as it cannot be one, before the stream ends.
func TestTextThatCannotBeACallStreams(t *testing.T) {
	for _, tt := range []struct{ pieces, want []string }{
		{[]string{"```json\n{\"name\": \"bash\", \"arguments\": {}}\n```\n", "That is how."}, []string{"", "```json\n{\"name\": \"bash\", \"arguments\": {}}\n```\nThat is how."}},
		{[]string{"```", "go\nx := 1"}, []string{"", "```go\nx := 1"}},
		{[]string{"[", "1, 2]"}, []string{"", "[1, 2]"}},
		{[]string{"Use `<tool_call>", "` tags."}, []string{"Use `<tool_call>", "` tags."}},
		{[]string{"So <", "b> it is."}, []string{"So ", "<b> it is."}},
	} {
		a := newAccumulator(DefaultMaxArgs)
		a.tools = formatTools
		for i, p := range tt.pieces {
			ch := openai.ChatCompletionStreamChoice{Delta: openai.ChatCompletionStreamChoiceDelta{Content: p}}
			if d, _ := a.add(&openai.ChatCompletionStreamResponse{Choices: []openai.ChatCompletionStreamChoice{ch}}); d.Content != tt.want[i] {
				t.Errorf("%q: piece %d showed %q, want %q", tt.pieces, i, d.Content, tt.want[i])
			}
		}
	}
}
