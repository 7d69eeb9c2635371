package compact

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tick-agent/tick/provider"
)

//go:embed summary.md
var prompt string

// Prompt returns the instruction that asks the model for the summary
// (summary.md): the user's goals and requests, decisions, files touched,
// commands and results that matter, open problems and what was about to
// happen next.
func Prompt() string { return prompt }

// Streamer is the model: *provider.Client implements it.
type Streamer interface {
	Stream(ctx context.Context, req provider.Request, h provider.Handler) (*provider.Response, error)
}

// Caps applied to the old messages in the summary request, in bytes.
const (
	// ToolOutputCap caps each tool result.
	ToolOutputCap = 2000
	// ArgumentsCap caps each tool call's arguments (kept valid JSON).
	ArgumentsCap = 2000
	// TextCap caps the text of each user and assistant message.
	TextCap = 8000
)

// systemText frames the summary request.
const systemText = "You summarise a conversation between a user and a coding agent, so that the agent can continue the work from your summary alone."

// Summarize asks the model for a summary of old and returns its text. The
// request holds a short system message, the old messages and a last user
// message with Prompt(); it offers no tools. To keep the request itself
// small, reasoning is left out, each tool result is cut to ToolOutputCap
// bytes, tool call arguments to ArgumentsCap and other texts to TextCap
// (head and tail kept, the cut said); tool calls without a result are
// answered as interrupted and results without a call dropped, so the
// request is valid. When maxTokens is positive and the request is still
// estimated above it, the oldest exchanges after the first message are
// left out (the prompt says how many). The answer's surrounding
// <summary> tags, if any, are removed. An empty answer is an error.
func Summarize(ctx context.Context, s Streamer, model string, old []provider.Message, maxTokens int) (string, error) {
	if len(old) == 0 {
		return "", errors.New("summarize: there are no messages to summarise")
	}
	system := provider.Message{Role: provider.RoleSystem, Content: systemText}
	ask := provider.Message{Role: provider.RoleUser, Content: Prompt()}
	msgs := prepare(old)
	omitted := 0
	if maxTokens > 0 {
		budget := max(1, maxTokens-Estimate([]provider.Message{system, ask}))
		msgs, omitted = fitRequest(msgs, budget)
	}
	if omitted > 0 {
		ask.Content += fmt.Sprintf("\n\n(%d older messages were left out above to fit the request; the first message was kept.)", omitted)
	}
	req := provider.Request{Model: model, Messages: make([]provider.Message, 0, len(msgs)+2)}
	req.Messages = append(req.Messages, system)
	req.Messages = append(req.Messages, msgs...)
	req.Messages = append(req.Messages, ask)
	resp, err := s.Stream(ctx, req, provider.Handler{})
	if err != nil {
		return "", fmt.Errorf("summarize %d messages: %w", len(old), err)
	}
	if resp == nil {
		return "", fmt.Errorf("summarize %d messages: the model returned no response", len(old))
	}
	text := strings.TrimSpace(resp.Message.Content)
	if strings.HasPrefix(text, "<summary>") && strings.HasSuffix(text, "</summary>") {
		text = strings.TrimSpace(text[len("<summary>") : len(text)-len("</summary>")])
	}
	if text == "" {
		return "", fmt.Errorf("summarize %d messages: the model returned an empty summary", len(old))
	}
	return text, nil
}

// prepare returns a valid, capped copy of old for the summary request.
func prepare(old []provider.Message) []provider.Message {
	msgs := answerAll(old)
	for i := range msgs {
		m := &msgs[i]
		m.Reasoning = ""
		if m.Role == provider.RoleTool {
			m.Content = clip(m.Content, ToolOutputCap)
		} else {
			m.Content = clip(m.Content, TextCap)
		}
		if len(m.ToolCalls) > 0 {
			calls := make([]provider.ToolCall, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				c.Arguments = clipArgs(c.Arguments, ArgumentsCap)
				calls[j] = c
			}
			m.ToolCalls = calls
		}
	}
	return msgs
}

// fitRequest leaves out the oldest exchanges after the first one (an
// exchange: a user or assistant message with the tool results after it)
// until msgs are estimated at no more than budget tokens, keeping at least
// the first and the last. It returns the messages and how many were left
// out.
func fitRequest(msgs []provider.Message, budget int) ([]provider.Message, int) {
	if Estimate(msgs) <= budget {
		return msgs, 0
	}
	var starts []int // where each exchange begins
	for i, m := range msgs {
		if m.Role != provider.RoleTool {
			starts = append(starts, i)
		}
	}
	if len(starts) < 3 {
		return msgs, 0
	}
	head := starts[1] // the first exchange, always kept
	total := Estimate(msgs)
	cut := head // msgs[head:cut] are left out
	for _, next := range starts[2:] {
		for _, m := range msgs[cut:next] {
			total -= cost(m)
		}
		cut = next
		if total <= budget {
			break
		}
	}
	out := append(append([]provider.Message(nil), msgs[:head]...), msgs[cut:]...)
	return out, cut - head
}

// answerAll makes msgs valid for a strict server; see provider.Repair.
func answerAll(msgs []provider.Message) []provider.Message {
	out, _, _ := provider.Repair(msgs, provider.Interrupted)
	return out
}

// clip cuts s to about n bytes, keeping its head (two thirds) and tail and
// saying in between how much was cut. Cuts fall on rune boundaries.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head := n * 2 / 3
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - (n - head)
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + fmt.Sprintf("\n[... %d bytes cut ...]\n", tail-head) + s[tail:]
}

// clipArgs cuts tool call arguments to about n bytes and keeps them valid
// JSON: long string values of an object are clipped; anything else too
// long is wrapped as {"truncated_arguments": "<clipped text>"}.
func clipArgs(args string, n int) string {
	if len(args) <= n {
		return args
	}
	var obj map[string]any
	if json.Unmarshal([]byte(args), &obj) == nil && obj != nil {
		for k, v := range obj {
			if s, ok := v.(string); ok && len(s) > n/2 {
				obj[k] = clip(s, n/2)
			}
		}
		if b, err := marshal(obj); err == nil && len(b) <= 2*n {
			return b
		}
	}
	b, err := marshal(map[string]string{"truncated_arguments": clip(args, n)})
	if err != nil {
		return "{}"
	}
	return b
}

// marshal encodes v as compact JSON without HTML escaping.
func marshal(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}
