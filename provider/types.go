// Package provider is tick's model client: a streaming client for any
// OpenAI-compatible Chat Completions endpoint, built on go-openai.
//
// It is the only package that imports go-openai. The rest of tick speaks the
// small types declared here: Message, ToolCall, ToolSpec, Request, Response,
// Delta and Usage. Stream sends one request, reports text and reasoning
// deltas as they arrive, reassembles tool calls from their fragments and
// returns the complete assistant message.
package provider

import (
	"encoding/json"
	"time"
)

// Role is the author of a Message.
type Role string

// The roles of the Chat Completions API.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of a conversation. An assistant message may carry
// ToolCalls; a tool message answers one call and names it in ToolCallID.
// Reasoning holds a reasoning model's thoughts (reasoning_content); it is
// never part of the answer, and is sent back only to servers that need it.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content,omitempty"`
	Images     []Image    `json:"images,omitempty"`
	Reasoning  string     `json:"reasoning,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// Image is a picture attached to a user message, sent as an image_url
// part with a data: URL to a model that takes images and as a one-line
// note to one that does not. Data is the encoded file (PNG, JPEG, GIF or
// WebP, already within the attaching side's size cap); Name says where it
// came from ("shot.png") for the note and the screen.
type Image struct {
	MediaType string `json:"media_type"`
	Data      []byte `json:"data"`
	Name      string `json:"name,omitempty"`
}

// ToolCall is one function call requested by the model. Arguments is the raw
// JSON text the model produced; it may be malformed. ArgsCut is set when
// the model sent more arguments than the client keeps (Config.MaxArgs):
// Arguments is then "{}" and stands for nothing the model meant, so the
// call must not be run; it is answered with an error instead. The flag is
// kept with the call in a saved history; only Stream sets it, never
// anything the model sends.
type ToolCall struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Arguments string   `json:"arguments"`
	ArgsCut   *ArgsCut `json:"args_cut,omitempty"`
}

// ArgsCut says how large the arguments of a cut tool call were: Size bytes
// received, over the Limit in bytes that one call may have. With Calls
// set, the call stands for the Calls calls of the answer past MaxCalls
// (Limit is then MaxCalls, Size 0): none of them is kept or run, and the
// model gets one error naming the cap.
type ArgsCut struct {
	Size  int `json:"size"`
	Limit int `json:"limit"`
	Calls int `json:"calls,omitempty"`
}

// ToolSpec describes a tool offered to the model. Parameters is a JSON
// schema object.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Request is one model call: the model name (empty means the client's
// default), the whole history and the tools on offer.
type Request struct {
	Model    string
	Messages []Message
	Tools    []ToolSpec
	// Effort asks the model to think this hard, in the way the server
	// understands (see the table in servers.go); EffortDefault sends
	// nothing. A server that refuses it is asked again without, and not
	// sent it again (Handler.OnNotice says so once).
	Effort Effort
}

// Usage is the token count a server reports for one call. CachedTokens
// is the part of the prompt the server read from its prompt cache, where
// it says (prompt_tokens_details.cached_tokens).
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	CachedTokens     int `json:"cached_tokens,omitempty"`
	// CostUSD is the call's cost in US dollars when the server reported
	// it (usage.cost); nil otherwise.
	CostUSD *float64 `json:"server_cost_usd,omitempty"`
}

// Response is the outcome of a completed stream: the assembled assistant
// message, the finish reason the server gave (possibly empty), the usage
// when the server reported it, and whether calls were recovered from text.
type Response struct {
	Message      Message
	FinishReason string
	Usage        *Usage
	// Recovered names the format of tool calls the model wrote as text
	// and Stream turned into the message's ToolCalls (FormatHermes, ...);
	// "" when none were. The markup is then not in the message's text.
	Recovered string
}

// Delta is an increment of streamed output: answer text, reasoning text, or
// both empty when only a tool-call fragment arrived.
type Delta struct {
	Content   string
	Reasoning string
	// Rethought says that the answer text delivered so far was the model's
	// thoughts (a lone </think> came: the chat template had opened the
	// tag): it is withdrawn, and Reasoning holds all of it.
	Rethought bool
}

// Retry describes a failed attempt that Stream is about to retry after Wait.
type Retry struct {
	Attempt int           // 1 for the first retry
	Max     int           // the most retries that will be made
	Wait    time.Duration // the pause before the next attempt
	Err     error         // why the attempt failed
}

// Handler receives what a stream produces while it runs. Any func may be
// nil. They are called from the goroutine that called Stream, in order.
type Handler struct {
	OnDelta func(Delta)
	OnRetry func(Retry)
	// OnNotice receives a line for the user about how the server is used
	// (it refused the thinking switch).
	OnNotice func(string)
}
