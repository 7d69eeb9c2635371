package provider

import (
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// BenchmarkDetectPlainText feeds 100 KB of ordinary markdown prose (with
// code spans, brackets and angle brackets, but no call) through the
// accumulator in 4-byte pieces with tools offered: the cost of looking for
// thoughts and calls written as text on the streaming path.
func BenchmarkDetectPlainText(b *testing.B) {
	para := "Run `go test ./...` first; see [the docs](https://example.com) and a < b > c.\n" +
		"```go\nfunc main() { fmt.Println(\"hi\") }\n```\nThe answer is 42, not [1, 2].\n"
	text := strings.Repeat(para, 100_000/len(para)+1)
	tools := []ToolSpec{{Name: "bash"}, {Name: "read_file"}}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		a := newAccumulator(DefaultMaxArgs)
		a.tools = tools
		n := 0
		for i := 0; i < len(text); i += 4 {
			ch := openai.ChatCompletionStreamChoice{Delta: openai.ChatCompletionStreamChoiceDelta{Content: text[i:min(i+4, len(text))]}}
			d, _ := a.add(&openai.ChatCompletionStreamResponse{Choices: []openai.ChatCompletionStreamChoice{ch}})
			n += len(d.Content)
		}
		n += len(a.flush().Content)
		if n != len(text) {
			b.Fatalf("shown %d bytes of %d", n, len(text))
		}
	}
}

// BenchmarkManyMarkers: 1 MB of text that is nothing but call markers
// that are not calls, in answer and in reasoning: the search for calls
// at the end of the stream is bounded (maxRecoveredCall tries).
func BenchmarkManyMarkers(b *testing.B) {
	text := strings.Repeat("<tool_call> x <|tool_call>call:y[TOOL_CALLS]", 1<<20/44)
	tools := []ToolSpec{{Name: "bash"}}
	b.SetBytes(int64(2 * len(text)))
	b.ReportAllocs()
	for b.Loop() {
		a := newAccumulator(DefaultMaxArgs)
		a.tools = tools
		ch := openai.ChatCompletionStreamChoice{Delta: openai.ChatCompletionStreamChoiceDelta{Content: text, ReasoningContent: text}}
		a.add(&openai.ChatCompletionStreamResponse{Choices: []openai.ChatCompletionStreamChoice{ch}})
		a.flush()
		if a.recovered != "" {
			b.Fatal("recovered a call from markers alone")
		}
	}
}
