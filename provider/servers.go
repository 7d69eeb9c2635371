package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// Server names a kind of OpenAI-compatible server whose habits differ:
// how reasoning goes back to it and how thinking is switched. The zero
// value means unknown: tick guesses from the base URL (see ServerOf).
type Server string

// The servers tick knows apart.
const (
	ServerUnknown    Server = ""
	ServerOpenAI     Server = "openai"
	ServerDeepSeek   Server = "deepseek"
	ServerOpenRouter Server = "openrouter"
	ServerOllama     Server = "ollama"
	ServerLlamaCpp   Server = "llamacpp"
	ServerVLLM       Server = "vllm"
	ServerLMStudio   Server = "lmstudio"
)

// serverRule is what one kind of server wants.
type serverRule struct {
	// reasoning lists the fields in which an assistant message's reasoning
	// goes back (none: it is not sent).
	reasoning []string
	// reasoningOnCalls: every assistant message with tool calls carries
	// the field, empty or not (the server refuses the history otherwise).
	reasoningOnCalls bool
	// effort maps a thinking level (Effort) to the request's fields.
	effort func(Effort) map[string]any
}

// rules is the one table of what each server wants. Each line names the
// source it was checked against.
var rules = map[Server]serverRule{
	// OpenAI's Chat Completions neither sends reasoning nor takes it back;
	// reasoning_effort is its own parameter.
	ServerOpenAI: {effort: effortField},
	// DeepSeek's thinking mode: reasoning_content must come back on every
	// assistant message that made tool calls, or the request gets 400
	// ("The reasoning_content in the thinking mode must be passed back",
	// api-docs.deepseek.com guides/thinking_mode#tool-calls); off is
	// thinking.type "disabled".
	ServerDeepSeek: {reasoning: []string{"reasoning_content"}, reasoningOnCalls: true, effort: deepseekEffort},
	// OpenRouter normalises reasoning as "reasoning", in and out.
	ServerOpenRouter: {reasoning: []string{"reasoning"}, effort: effortField},
	// Ollama reads "reasoning" on assistant messages into the model's
	// thinking (ollama openai/openai.go lines 35 and 565) and maps
	// reasoning_effort to its think switch, "none" to off (lines 531-545).
	ServerOllama: {reasoning: []string{"reasoning"}, effort: effortField},
	// llama.cpp parses reasoning_content on assistant messages
	// (common/chat.cpp, common_chat_msgs_parse_oaicompat) and passes
	// chat_template_kwargs to the template (Qwen3's enable_thinking,
	// gpt-oss's reasoning_effort).
	ServerLlamaCpp: {reasoning: []string{"reasoning_content"}, effort: templateEffort(false)},
	// vLLM copies "reasoning" into both names for the template and drops
	// reasoning_content on input since the rename (vllm/entrypoints/
	// chat_utils.py, _parse_chat_message_content); older releases read
	// reasoning_content: both are sent. reasoning_effort is a request
	// field (gpt-oss), enable_thinking a template switch (Qwen3).
	ServerVLLM: {reasoning: []string{"reasoning", "reasoning_content"}, effort: templateEffort(true)},
	// LM Studio, and any server tick does not know: reasoning_content, the
	// name most servers use, and reasoning_effort.
	ServerLMStudio: {reasoning: []string{"reasoning_content"}, effort: effortField},
	ServerUnknown:  {reasoning: []string{"reasoning_content"}, effort: effortField},
}

// ruleFor returns the table's line for s (unknown servers get the
// ServerUnknown line).
func ruleFor(s Server) serverRule {
	if r, ok := rules[s]; ok {
		return r
	}
	return rules[ServerUnknown]
}

// ServerOf guesses the kind of server at baseURL: hosted APIs by their
// host, local servers by their default port (11434 Ollama, 8080
// llama.cpp, 8000 vLLM, 1234 LM Studio). ServerUnknown when nothing fits.
func ServerOf(baseURL string) Server {
	u, err := url.Parse(baseURL)
	if err != nil {
		return ServerUnknown
	}
	host := strings.ToLower(u.Hostname())
	switch {
	case host == "api.openai.com":
		return ServerOpenAI
	case host == "api.deepseek.com":
		return ServerDeepSeek
	case host == "openrouter.ai":
		return ServerOpenRouter
	}
	switch u.Port() {
	case "11434":
		return ServerOllama
	case "8080":
		return ServerLlamaCpp
	case "8000":
		return ServerVLLM
	case "1234":
		return ServerLMStudio
	}
	return ServerUnknown
}

// rewriteBody returns the JSON request body adjusted to the server: the
// reasoning of assistant messages under the names the server reads
// (go-openai writes it as reasoning_content), the field added where the
// server requires it, and extra top-level fields. The body is returned
// unchanged when nothing applies or it does not decode. Only assistant
// messages are decoded and encoded again; the others, and the top-level
// values, are copied as they are. Keys are written in a fixed order, so
// the same request gives the same bytes.
func rewriteBody(body []byte, r serverRule, extra map[string]any) []byte {
	renames := len(r.reasoning) != 1 || r.reasoning[0] != "reasoning_content"
	if len(extra) == 0 && !r.reasoningOnCalls && (!renames || !bytes.Contains(body, []byte(`"reasoning_content"`))) {
		return body
	}
	var top map[string]json.RawMessage
	var msgs []json.RawMessage
	if json.Unmarshal(body, &top) != nil || json.Unmarshal(top["messages"], &msgs) != nil {
		return body
	}
	for i, raw := range msgs {
		m, ok := rewriteAssistant(raw, r)
		if !ok {
			return body
		}
		msgs[i] = m
	}
	top["messages"] = joinJSON('[', msgs, ']')
	for k, v := range extra {
		if vb, err := json.Marshal(v); err == nil {
			top[k] = vb
		}
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fields := make([]json.RawMessage, len(keys))
	for i, k := range keys {
		kb, _ := json.Marshal(k) // a string: cannot fail
		fields[i] = append(append(kb, ':'), top[k]...)
	}
	return joinJSON('{', fields, '}')
}

// rewriteAssistant returns the message raw with its reasoning under the
// names the server reads (see rewriteBody), or raw itself when it is not
// an assistant message or nothing changes; false when it does not decode.
func rewriteAssistant(raw json.RawMessage, r serverRule) (json.RawMessage, bool) {
	if !isAssistant(raw) {
		return raw, true
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	text, ok := m["reasoning_content"]
	if !ok && r.reasoningOnCalls && len(m["tool_calls"]) > 0 {
		text, ok = json.RawMessage(`""`), true
	}
	delete(m, "reasoning_content")
	if ok {
		for _, name := range r.reasoning {
			m[name] = text
		}
	}
	b, err := json.Marshal(m)
	return b, err == nil
}

// isAssistant reports whether the encoded message raw is an assistant's:
// from its first bytes, as go-openai writes the role first, else decoded.
func isAssistant(raw json.RawMessage) bool {
	const lead = `{"role":"`
	if rest, ok := bytes.CutPrefix(raw, []byte(lead)); ok {
		return bytes.HasPrefix(rest, []byte(`assistant"`))
	}
	var head struct {
		Role string `json:"role"`
	}
	return json.Unmarshal(raw, &head) == nil && head.Role == "assistant"
}

// joinJSON writes parts between open and end, separated by commas.
func joinJSON(open byte, parts []json.RawMessage, end byte) []byte {
	n := 2 + len(parts)
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, 0, n)
	out = append(out, open)
	for i, p := range parts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, p...)
	}
	return append(out, end)
}

// rewriteBody passes the request body through rewrite.
func (d *captureDoer) rewriteBody(req *http.Request) error {
	if d.rewrite == nil || req.Body == nil {
		return nil
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return fmt.Errorf("read the request body: %w", err)
	}
	b = d.rewrite(b)
	req.Body = io.NopCloser(bytes.NewReader(b))
	req.ContentLength = int64(len(b))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	return nil
}
