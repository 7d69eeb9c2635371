package compact

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
)

func TestWindow(t *testing.T) {
	cases := []struct {
		model string
		want  int
	}{
		{"gpt-4.1", 1_047_576},
		{"gpt-4.1-mini", 1_047_576},
		{"openai/gpt-4.1-nano", 1_047_576},
		{"gpt-4o", 128_000},
		{"GPT-4o-mini-2024-07-18", 128_000},
		{"ft:gpt-4o-mini:acme::abc123", 128_000},
		{"gpt-4-turbo", 128_000},
		{"gpt-4", 8_192},
		{"gpt-4-32k", 32_768},
		{"gpt-3.5-turbo", 16_385},
		{"gpt-5", 272_000},
		{"gpt-5-mini", 272_000},
		{"gpt-5-chat-latest", 128_000},
		{"gpt-oss:20b", 131_072},
		{"o1", 200_000},
		{"o1-mini", 128_000},
		{"o3-mini", 200_000},
		{"o4-mini", 200_000},
		{"claude-sonnet-4-5", 200_000},
		{"anthropic/claude-3.5-sonnet", 200_000},
		{"gemini-2.5-pro", 1_048_576},
		{"google/gemma-3-27b-it", 131_072},
		{"deepseek-chat", 128_000},
		{"deepseek-r1:8b", 128_000},
		{"qwen2.5-coder:7b", 32_768},
		{"Qwen/Qwen3-Coder-30B-A3B-Instruct", 262_144},
		{"llama3.1:8b", 131_072},
		{"meta-llama/Llama-3.3-70B-Instruct", 131_072},
		{"llama3", 8_192},
		{"codellama", 16_384},
		{"mistral", 32_768},
		{"mistral-large-latest", 131_072},
		{"codestral-latest", 256_000},
		{"devstral", 131_072},
		{"mixtral:8x7b", 32_768},
		{"phi4", 16_384},
		{"some-local-model", DefaultWindow},
		{"", DefaultWindow},
	}
	for _, c := range cases {
		t.Run(c.model, func(t *testing.T) {
			if got := Window(c.model); got != c.want {
				t.Errorf("Window(%q) = %d, want %d", c.model, got, c.want)
			}
		})
	}
}

func ExampleWindow() {
	for _, m := range []string{"gpt-4.1-mini", "claude-sonnet-4-5", "llama3.1:8b", "my-local-model"} {
		fmt.Printf("%s: %d\n", m, Window(m))
	}
	// Output:
	// gpt-4.1-mini: 1047576
	// claude-sonnet-4-5: 200000
	// llama3.1:8b: 131072
	// my-local-model: 128000
}

func TestNeeded(t *testing.T) {
	cases := []struct {
		prompt, window int
		want           bool
	}{
		{0, 1000, false},
		{799, 1000, false},
		{800, 1000, true},
		{5000, 1000, true},
		{102_399, 0, false}, // default window 128k: threshold 102,400
		{102_400, 0, true},
		{837_860, 1_047_576, false},
		{838_061, 1_047_576, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d of %d", c.prompt, c.window), func(t *testing.T) {
			if got := Needed(c.prompt, c.window); got != c.want {
				t.Errorf("Needed(%d, %d) = %v, want %v", c.prompt, c.window, got, c.want)
			}
		})
	}
}

func TestEstimate(t *testing.T) {
	if got := Estimate(nil); got != 0 {
		t.Errorf("Estimate(nil) = %d, want 0", got)
	}
	one := []provider.Message{{Role: provider.RoleUser, Content: strings.Repeat("a", 400)}}
	if got := Estimate(one); got != replyOverhead+messageOverhead+100 {
		t.Errorf("Estimate of 400 chars = %d, want %d", got, replyOverhead+messageOverhead+100)
	}
	// Monotonic: every message added, every byte of content, every tool
	// call makes the estimate grow.
	msgs := []provider.Message{}
	prev := Estimate(msgs)
	add := []provider.Message{
		{Role: provider.RoleUser, Content: "hi"},
		{Role: provider.RoleAssistant},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`}}},
		{Role: provider.RoleTool, ToolCallID: "c1", Content: strings.Repeat("x", 10_000)},
		{Role: provider.RoleAssistant, Content: "done", Reasoning: strings.Repeat("r", 100)},
	}
	for i, m := range add {
		msgs = append(msgs, m)
		got := Estimate(msgs)
		if got <= prev {
			t.Errorf("after message %d the estimate went from %d to %d", i, prev, got)
		}
		prev = got
	}
	longer := append([]provider.Message(nil), msgs...)
	longer[0].Content += "more text"
	if Estimate(longer) <= Estimate(msgs) {
		t.Errorf("longer content did not raise the estimate")
	}
}
