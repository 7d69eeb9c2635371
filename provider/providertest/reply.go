package providertest

import (
	"time"
)

// Call is one scripted tool call. An empty ID is replaced by a generated,
// server-wide unique one ("call_pt<n>"). Args is sent verbatim, so it may be
// malformed JSON on purpose.
type Call struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	Args string `json:"args"`
}

// Usage is the token count reported in the usage chunk. Details, when
// set, is sent as OpenAI's prompt_tokens_details.
type Usage struct {
	PromptTokens     int            `json:"prompt_tokens"`
	CompletionTokens int            `json:"completion_tokens"`
	TotalTokens      int            `json:"total_tokens"`
	Details          *PromptDetails `json:"prompt_tokens_details,omitempty"`
	// Cost, when not zero, is sent as usage.cost (US dollars), as
	// OpenRouter reports it.
	Cost float64 `json:"cost,omitempty"`
}

// PromptDetails is the breakdown of the prompt's tokens a server reports.
type PromptDetails struct {
	CachedTokens int `json:"cached_tokens"`
}

// Reply is one scripted answer. The zero value streams an empty answer with
// finish_reason "stop".
//
// A streamed reply is sent as server-sent events, the way the OpenAI API
// does: a first chunk with the role (and "content":"" — or
// "content":null when the answer is only tool calls — and
// "refusal":null), Reasoning as reasoning_content deltas, Text split into
// small content deltas, each tool call as a first chunk carrying index,
// id, type and name followed by its Args split over several chunks, a
// final chunk with the finish reason ("tool_calls" when there are calls,
// else "stop"), a usage chunk with empty choices when the request asked
// for stream_options.include_usage, and "data: [DONE]". Every chunk has a
// system_fingerprint and every choice "logprobs":null. WholeCalls switches
// to the shape Ollama sends instead.
//
// When Status is set (or Body without Raw) the server answers with that
// status and Body (an OpenAI-style error JSON by default) instead.
type Reply struct {
	// Text is the answer text, streamed in chunks of ChunkSize runes.
	Text string `json:"text,omitempty"`
	// Reasoning is streamed first as reasoning_content deltas.
	Reasoning string `json:"reasoning,omitempty"`
	// ToolCalls are streamed after the text.
	ToolCalls []Call `json:"tool_calls,omitempty"`

	// WholeCalls streams the way Ollama does: no role-only chunk, every
	// delta repeats "role":"assistant" and a content string ("" when it
	// carries no text), system_fingerprint "fp_ollama", no logprobs, and
	// each tool call whole (index, id, type, name, full arguments) in a
	// chunk of its own, then a finish chunk with delta
	// {"role":"assistant","content":""}. With NoIndex, all calls come in
	// one delta without index fields, the way older Ollama versions sent
	// them.
	WholeCalls bool `json:"whole_calls,omitempty"`
	// NoIndex leaves out the index field of every tool-call fragment.
	NoIndex bool `json:"no_index,omitempty"`
	// ReuseIndex gives every call index 0; each new call has a new id.
	ReuseIndex bool `json:"reuse_index,omitempty"`
	// FinishReason overrides the finish reason (e.g. "stop" on a tool turn).
	FinishReason string `json:"finish_reason,omitempty"`
	// OmitFinish sends no finish_reason at all (the finish chunk is left
	// out); the stream still ends with [DONE].
	OmitFinish bool `json:"omit_finish,omitempty"`
	// Usage overrides the reported usage; by default it is estimated from
	// the request and the reply (about 4 characters per token).
	Usage *Usage `json:"usage,omitempty"`
	// NoUsage leaves out the usage chunk even when it was asked for.
	NoUsage bool `json:"no_usage,omitempty"`
	// NoDone leaves out the final "data: [DONE]".
	NoDone bool `json:"no_done,omitempty"`

	// ChunkSize is the number of runes per text, reasoning or argument
	// chunk; 0 means 4.
	ChunkSize int `json:"chunk_size,omitempty"`
	// ChunkDelay is slept before each chunk after the first.
	ChunkDelay time.Duration `json:"chunk_delay,omitempty"`
	// CutAfter, when positive, closes the TCP connection abruptly after that
	// many data events (the role chunk, when there is one, counts as the
	// first), before the stream is complete. A negative value cuts right
	// after the headers.
	CutAfter int `json:"cut_after,omitempty"`
	// Hang sends the headers, the role chunk (when there is one) and the
	// first piece of the answer (when there is one; the first event for
	// Raw), then blocks until the client goes away or the server closes.
	Hang bool `json:"hang,omitempty"`

	// ErrorEvent, when set, is sent verbatim as a data event in place of
	// the rest of the stream, the way the OpenAI API reports a failure
	// after the 200 status: e.g. `{"error":{"message":"The server had an
	// error while processing your request.","type":"server_error"}}`.
	// The stream then ends without finish reason, usage or [DONE]. A
	// request without "stream" gets it as a 200 JSON body instead.
	ErrorEvent string `json:"error_event,omitempty"`
	// ErrorAfter is the number of the reply's data events sent before
	// ErrorEvent (the role chunk, when there is one, counts as the first);
	// 0 sends the error event first.
	ErrorAfter int `json:"error_after,omitempty"`

	// Status is the HTTP status to answer with instead of a stream.
	Status int `json:"status,omitempty"`
	// Body is the response body sent with Status; empty means an
	// OpenAI-style error JSON naming the status. Body without Status is
	// sent with status 200 as application/json.
	Body string `json:"body,omitempty"`
	// RetryAfter is sent as the Retry-After header when not empty.
	RetryAfter string `json:"retry_after,omitempty"`

	// Raw is written verbatim as the event-stream body (status 200), one
	// event ("\n\n"-terminated block) per write, honouring ChunkDelay and
	// CutAfter.
	Raw []byte `json:"raw,omitempty"`
}

// chunkSize returns the effective chunk size.
func (r Reply) chunkSize() int {
	if r.ChunkSize > 0 {
		return r.ChunkSize
	}
	return 4
}

// split cuts s into pieces of at most n runes. An empty s gives no pieces.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	var out []string
	count, start := 0, 0
	for i := range s {
		if count == n {
			out = append(out, s[start:i])
			start, count = i, 0
		}
		count++
	}
	return append(out, s[start:])
}
