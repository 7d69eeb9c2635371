package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// maxWhole caps the size of a non-streamed answer that is read.
const maxWhole = 16 << 20

// rejectsStreamOptions reports whether err is a 400 refusing the
// stream_options parameter, which some older servers do not know.
func rejectsStreamOptions(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.StatusCode == 400 &&
		strings.Contains(strings.ToLower(ae.Message), "stream_options")
}

// wholeAnswer handles a server that answered with one chat.completion
// object instead of a stream: the answer is handed to h as one delta and
// assembled like a stream.
func (c *Client) wholeAnswer(acc *accumulator, body []byte, h Handler) (*Response, bool, error) {
	if ae, ok := eventError(body, c.base, c.key, "error answer"); ok {
		return nil, false, ae
	}
	var cr openai.ChatCompletionResponse
	if err := json.Unmarshal(body, &cr); err != nil || len(cr.Choices) == 0 {
		return nil, false, fmt.Errorf("read answer from %s: expected a stream or a chat completion, got %.120q", c.base, body)
	}
	ch := cr.Choices[0]
	if ch.Message.ReasoningContent == "" {
		ch.Message.ReasoningContent = reasoningOf(body)
	}
	sr := openai.ChatCompletionStreamResponse{Usage: &cr.Usage}
	calls := make([]openai.ToolCall, len(ch.Message.ToolCalls))
	for i, tc := range ch.Message.ToolCalls {
		tc.Index = &i
		calls[i] = tc
	}
	sr.Choices = []openai.ChatCompletionStreamChoice{{
		Delta: openai.ChatCompletionStreamChoiceDelta{
			Content:          ch.Message.Content,
			Refusal:          ch.Message.Refusal,
			ReasoningContent: ch.Message.ReasoningContent,
			ToolCalls:        calls,
		},
		FinishReason: ch.FinishReason,
	}}
	if cr.Usage.TotalTokens == 0 {
		sr.Usage = nil
	}
	d, frag := acc.add(&sr)
	if acc.usage != nil {
		acc.usage.CostUSD = serverCost(body)
	}
	end := acc.flush()
	d.Content, d.Reasoning = d.Content+end.Content, d.Reasoning+end.Reasoning
	if h.OnDelta != nil && (d.Content != "" || d.Reasoning != "" || frag) {
		h.OnDelta(d)
	}
	if acc.finish == "" {
		acc.finish = "stop"
	}
	return c.partial(acc), acc.got, nil
}
