package provider

import (
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// splitAll feeds s to a fresh splitter in the given pieces and returns the
// answer and the reasoning, with what it held at the end.
func splitAll(pieces []string) (answer, thought string) {
	var t thinkSplit
	for _, p := range pieces {
		a, th, moved := t.feed(p)
		if moved {
			thought, answer = thought+answer, ""
		}
		answer, thought = answer+a, thought+th
	}
	a, th := t.pending()
	return answer + a, thought + th
}

func TestThinkSplitEverySplit(t *testing.T) {
	tests := []struct {
		in, answer, thought string
	}{
		{"<think>plan</think>\n\nanswer", "answer", "plan"},
		{"  \n<think>\nplan\n</think>answer", "answer", "\nplan\n"},
		{"plan</think>\n\nanswer", "answer", "plan"},
		{"plain answer", "plain answer", ""},
		{"a < b and c </ d", "a < b and c </ d", ""},
		{"ends with <", "ends with <", ""},
		{"<think></think>\n\nok", "ok", ""},
		{"<thinking is hard", "<thinking is hard", ""},
		{"use <think> tags like <think>x</think>", "use <think> tags like <think>x</think>", ""},
		{"<think>unfinished", "", "unfinished"},
		{"<think>a</think>b</think>c", "b</think>c", "a"},
		{"write `</think>` to close it", "write `</think>` to close it", ""},
		{"the tag \"</think>\" ends it", "the tag \"</think>\" ends it", ""},
		{"", "", ""},
		{"\n\n", "\n\n", ""},
	}
	for _, tt := range tests {
		for cut := 0; cut <= len(tt.in); cut++ {
			answer, thought := splitAll([]string{tt.in[:cut], tt.in[cut:]})
			if answer != tt.answer || thought != tt.thought {
				t.Errorf("%q cut at %d: answer %q thought %q, want %q and %q", tt.in, cut, answer, thought, tt.answer, tt.thought)
			}
		}
		bytes := make([]string, len(tt.in))
		for i := range tt.in {
			bytes[i] = tt.in[i : i+1]
		}
		if answer, thought := splitAll(bytes); answer != tt.answer || thought != tt.thought {
			t.Errorf("%q byte by byte: answer %q thought %q, want %q and %q", tt.in, answer, thought, tt.answer, tt.thought)
		}
	}
}

// BenchmarkHeldTextCall feeds a 1 MiB tool call written as text in 16-byte
// pieces: holding it must cost linear time.
func BenchmarkHeldTextCall(b *testing.B) {
	content := strings.Repeat("x", 1<<20)
	text := `<tool_call>{"name": "write_file", "arguments": {"path": "a", "content": "` + content + `"}}</tool_call>`
	tools := []ToolSpec{{Name: "write_file"}}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		a := newAccumulator(DefaultMaxArgs * 2)
		a.tools = tools
		for i := 0; i < len(text); i += 16 {
			piece := text[i:min(i+16, len(text))]
			ch := openai.ChatCompletionStreamChoice{Delta: openai.ChatCompletionStreamChoiceDelta{Content: piece}}
			a.add(&openai.ChatCompletionStreamResponse{Choices: []openai.ChatCompletionStreamChoice{ch}})
		}
		a.flush()
		if a.recovered == "" {
			b.Fatal("not recovered")
		}
	}
}
