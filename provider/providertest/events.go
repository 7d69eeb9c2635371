package providertest

import (
	"encoding/json"
)

// Wire shapes of the chunks the server sends. Field order follows the
// real API's.
type chunk struct {
	ID                string   `json:"id"`
	Object            string   `json:"object"`
	Created           int64    `json:"created"`
	Model             string   `json:"model"`
	SystemFingerprint string   `json:"system_fingerprint"`
	Choices           []choice `json:"choices"`
	Usage             *Usage   `json:"usage,omitempty"`
}

type choice struct {
	Index        int             `json:"index"`
	Delta        delta           `json:"delta"`
	Logprobs     json.RawMessage `json:"logprobs,omitempty"` // "null" on OpenAI-style chunks
	FinishReason *string         `json:"finish_reason"`
}

// delta holds content and refusal as raw JSON so that an explicit null
// ("content":null) can be told apart from a missing field.
type delta struct {
	Role             string          `json:"role,omitempty"`
	Content          json.RawMessage `json:"content,omitempty"`
	ReasoningContent string          `json:"reasoning_content,omitempty"`
	ToolCalls        []toolDelta     `json:"tool_calls,omitempty"`
	Refusal          json.RawMessage `json:"refusal,omitempty"`
}

type toolDelta struct {
	Index    *int    `json:"index,omitempty"`
	ID       string  `json:"id,omitempty"`
	Type     string  `json:"type,omitempty"`
	Function fnDelta `json:"function"`
}

type fnDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// jsonNull is an explicit JSON null.
var jsonNull = json.RawMessage("null")

// jsonString renders s as a JSON string.
func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// Fingerprints sent as system_fingerprint.
const (
	openAIFingerprint = "fp_providertest"
	ollamaFingerprint = "fp_ollama"
)

// finishReason is the reason the reply ends with.
func (r Reply) finishReason() string {
	switch {
	case r.FinishReason != "":
		return r.FinishReason
	case len(r.ToolCalls) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

// usage returns the usage to report for req.
func (r Reply) usage(req Request) Usage {
	if r.Usage != nil {
		return *r.Usage
	}
	prompt := 0
	for _, m := range req.Messages {
		prompt += len(m.Content) + len(m.Reasoning)
		for _, c := range m.ToolCalls {
			prompt += len(c.Name) + len(c.Args)
		}
	}
	completion := len(r.Text) + len(r.Reasoning)
	for _, c := range r.ToolCalls {
		completion += len(c.Name) + len(c.Args)
	}
	u := Usage{PromptTokens: prompt/4 + 1, CompletionTokens: completion/4 + 1}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

// events renders the reply as the payloads of its data events, without
// the "data: " prefix, including the final "[DONE]". calls are the reply's
// tool calls with their ids filled in. hangAt is the index of the event
// after which a Hang reply blocks: the first piece of the answer, or the
// first event when there is none.
//
// OpenAI style (the default): a role chunk {"role":"assistant",
// "content":"","refusal":null} (content null when the answer is only tool
// calls), pieces whose deltas carry only what is new, a finish chunk with
// an empty delta; every choice has "logprobs":null. Ollama style
// (WholeCalls): no role-only chunk, every delta repeats "role":"assistant"
// and a content string, each call comes whole in its own chunk (all in one
// chunk without index with NoIndex), no logprobs.
func (r Reply) events(req Request, calls []Call) (out [][]byte, hangAt int) {
	ollama := r.WholeCalls
	base := chunk{
		ID:                "chatcmpl-providertest",
		Object:            "chat.completion.chunk",
		Created:           1727346178,
		Model:             req.Model,
		SystemFingerprint: openAIFingerprint,
	}
	if ollama {
		base.SystemFingerprint = ollamaFingerprint
	}
	add := func(d delta, finish *string) {
		ch := choice{Delta: d, FinishReason: finish}
		if ollama {
			ch.Delta.Role = "assistant"
			if ch.Delta.Content == nil {
				ch.Delta.Content = jsonString("")
			}
		} else {
			ch.Logprobs = jsonNull
		}
		c := base
		c.Choices = []choice{ch}
		b, _ := json.Marshal(c)
		out = append(out, b)
	}
	if !ollama {
		content := jsonString("")
		if r.Text == "" && len(calls) > 0 {
			content = jsonNull // what the real API sends before tool calls
		}
		add(delta{Role: "assistant", Content: content, Refusal: jsonNull}, nil)
	}
	if r.Text != "" || r.Reasoning != "" || len(calls) > 0 {
		hangAt = len(out)
	}
	n := r.chunkSize()
	for _, p := range split(r.Reasoning, n) {
		add(delta{ReasoningContent: p}, nil)
	}
	for _, p := range split(r.Text, n) {
		add(delta{Content: jsonString(p)}, nil)
	}
	r.addCalls(calls, add)
	if !r.OmitFinish {
		fr := r.finishReason()
		add(delta{}, &fr)
	}
	if req.IncludeUsage && !r.NoUsage {
		u := r.usage(req)
		c := base
		c.Choices = []choice{}
		c.Usage = &u
		b, _ := json.Marshal(c)
		out = append(out, b)
	}
	if r.ErrorEvent != "" {
		at := min(max(r.ErrorAfter, 0), len(out))
		return append(out[:at:at], []byte(r.ErrorEvent)), hangAt
	}
	if !r.NoDone {
		out = append(out, []byte("[DONE]"))
	}
	return out, hangAt
}

// addCalls renders the tool calls through add: whole calls (one chunk
// each, or all in one chunk without index with NoIndex) or, by default, a
// chunk with index, id, type and name followed by the arguments in pieces.
func (r Reply) addCalls(calls []Call, add func(delta, *string)) {
	index := func(i int) *int {
		if r.NoIndex {
			return nil
		}
		if r.ReuseIndex {
			i = 0
		}
		return &i
	}
	whole := func(i int, c Call) toolDelta {
		return toolDelta{Index: index(i), ID: c.ID, Type: "function", Function: fnDelta{Name: c.Name, Arguments: c.Args}}
	}
	switch {
	case r.WholeCalls && r.NoIndex && len(calls) > 0:
		var tds []toolDelta
		for i, c := range calls {
			tds = append(tds, whole(i, c))
		}
		add(delta{ToolCalls: tds}, nil)
	case r.WholeCalls:
		for i, c := range calls {
			add(delta{ToolCalls: []toolDelta{whole(i, c)}}, nil)
		}
	default:
		for i, c := range calls {
			idx := index(i)
			add(delta{ToolCalls: []toolDelta{{Index: idx, ID: c.ID, Type: "function", Function: fnDelta{Name: c.Name}}}}, nil)
			for _, p := range split(c.Args, r.chunkSize()) {
				add(delta{ToolCalls: []toolDelta{{Index: idx, Function: fnDelta{Arguments: p}}}}, nil)
			}
		}
	}
}
