package provider

import (
	"encoding/json"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// BenchmarkRewriteBody is the body rewrite a server rule asks for, on a
// conversation of 200 messages of 2 kB (OpenRouter: reasoning renamed).
func BenchmarkRewriteBody(b *testing.B) {
	req := openai.ChatCompletionRequest{Model: "m", Stream: true}
	text := strings.Repeat("some text of the conversation ", 70)
	for i := range 200 {
		m := openai.ChatCompletionMessage{Role: "user", Content: text}
		if i%2 == 1 {
			m = openai.ChatCompletionMessage{Role: "assistant", Content: text, ReasoningContent: "thought"}
		}
		req.Messages = append(req.Messages, m)
	}
	body, err := json.Marshal(req)
	if err != nil {
		b.Fatal(err)
	}
	rule := ruleFor(ServerOpenRouter)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		rewriteBody(body, rule, nil)
	}
}
