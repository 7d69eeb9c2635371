// Package compact keeps a long conversation within the model's context
// window: it estimates the size of a request, knows the windows of
// well-known models, decides when to compact, splits the history into an
// old part to summarise and a recent part to keep verbatim, has the model
// write the summary, and rebuilds the history from the summary, the todo
// list and the kept messages.
//
// A compaction, as the agent loop runs it:
//
//	if compact.Needed(promptTokens, window) {
//		old, kept := compact.Split(history, compact.KeepTurns, window*compact.KeepPercent/100)
//		summary, err := compact.Summarize(ctx, model, name, old, window*compact.SummaryPercent/100)
//		history = compact.Rebuild(summary, todos, kept)
//	}
//
// The package is pure apart from the model call in Summarize; it imports
// only provider and todo.
package compact

import (
	"strings"

	"github.com/tick-agent/tick/provider"
)

// Defaults for the loop. Each is a parameter of the function that uses it.
const (
	// DefaultWindow is the context window assumed for unknown models.
	DefaultWindow = 128_000
	// Threshold is the percentage of the window at which Needed says to
	// compact: the rest is room for the answer and the next tool results.
	Threshold = 80
	// KeepTurns is how many of the latest user turns Split keeps verbatim.
	KeepTurns = 2
	// KeepPercent caps the kept messages at this percentage of the window.
	KeepPercent = 30
	// SummaryPercent bounds the summary request at this percentage of the
	// window, leaving room for the summary itself.
	SummaryPercent = 70
)

// Token estimate parameters: about 4 characters (bytes) per token, plus a
// fixed overhead for each message's role and framing, for each tool call,
// and for the primer of the reply.
const (
	charsPerToken   = 4
	messageOverhead = 4
	callOverhead    = 3
	replyOverhead   = 3
)

// Estimate returns a rough token count of a request holding msgs, for
// servers that report no usage: one token per 4 bytes of content,
// reasoning, tool call ids, names and arguments (rounded up per message),
// plus 4 tokens per message, 3 per tool call, 1600 per image and 3 for
// the reply's primer.
// It is 0 for no messages and grows with every message added.
func Estimate(msgs []provider.Message) int {
	if len(msgs) == 0 {
		return 0
	}
	n := replyOverhead
	for _, m := range msgs {
		n += cost(m)
	}
	return n
}

// imageTokens is about what a vision model counts for an image of the
// size tick sends (package imagefile's caps).
const imageTokens = 1600

// cost is one message's share of Estimate.
func cost(m provider.Message) int {
	chars := len(m.Content) + len(m.Reasoning) + len(m.ToolCallID)
	n := messageOverhead + len(m.Images)*imageTokens
	for _, c := range m.ToolCalls {
		chars += len(c.ID) + len(c.Name) + len(c.Arguments)
		n += callOverhead
	}
	return n + (chars+charsPerToken-1)/charsPerToken
}

// Needed reports whether a prompt of promptTokens has reached Threshold
// percent of window, so the history should be compacted before the next
// request. A window of 0 or less means DefaultWindow.
func Needed(promptTokens, window int) bool {
	if window <= 0 {
		window = DefaultWindow
	}
	return promptTokens*100 >= window*Threshold
}

// Window returns the context window, in tokens of prompt, of a model
// known by its name, and DefaultWindow (128k) for any other. Names are
// matched case-insensitively, without a vendor or path prefix
// ("openai/gpt-4o", "meta-llama/Llama-3.1-8B"), a fine-tune prefix
// ("ft:") or an Ollama tag (":8b"), and ignoring dashes and underscores.
// Where a family has windows of several sizes the smaller is given, since
// compacting a little early is harmless and overflowing is not.
func Window(model string) int {
	k := strings.ToLower(strings.TrimSpace(model))
	k = strings.TrimPrefix(k, "ft:")
	if i := strings.LastIndexByte(k, '/'); i >= 0 {
		k = k[i+1:]
	}
	if i := strings.IndexByte(k, ':'); i >= 0 {
		k = k[:i]
	}
	k = strings.NewReplacer("-", "", "_", "", " ", "").Replace(k)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(k, s) {
				return true
			}
		}
		return false
	}
	pre := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return false
	}
	switch {
	// OpenAI
	case pre("gpt4.1"):
		return 1_047_576
	case pre("gpt5") && has("chat"):
		return 128_000
	case pre("gpt5"):
		return 272_000 // the input limit; the 400k window includes the output
	case pre("gpt4o", "chatgpt4o", "gpt4turbo", "gpt41106", "gpt40125"):
		return 128_000
	case pre("gpt432k"):
		return 32_768
	case pre("gpt4"):
		return 8_192
	case pre("gpt3.5"):
		return 16_385
	case pre("gptoss"):
		return 131_072
	case pre("o1mini", "o1preview"):
		return 128_000
	case pre("o1", "o3", "o4", "codexmini"):
		return 200_000
	// Anthropic, Google
	case has("claude"):
		return 200_000
	case has("gemini"):
		return 1_048_576
	case has("gemma3"):
		return 131_072
	case has("gemma"):
		return 8_192
	// Open-weight families
	case has("deepseek"):
		return 128_000
	case has("qwen3coder"):
		return 262_144
	case has("qwen", "qwq"):
		return 32_768
	case has("llama3.1", "llama3.2", "llama3.3", "llama4"):
		return 131_072
	case has("codellama"):
		return 16_384
	case has("llama3"):
		return 8_192
	case has("llama2"):
		return 4_096
	case has("codestral"):
		return 256_000
	case has("devstral", "mistrallarge", "mistralmedium", "mistralsmall", "mistralnemo", "ministral", "pixtral"):
		return 131_072
	case has("mistral", "mixtral"):
		return 32_768
	case has("phi4"):
		return 16_384
	case has("grok", "kimi", "moonshot", "glm"):
		return 131_072
	}
	return DefaultWindow
}
