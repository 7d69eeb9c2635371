package providertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// Request is one decoded chat-completions request as the server received
// it. Requests returns copies that the caller owns.
type Request struct {
	Model        string
	Stream       bool
	IncludeUsage bool // stream_options.include_usage
	Messages     []Message
	Tools        []string   // the names of the offered tools, in order
	ToolSpecs    []ToolSpec // the offered tools in full
	Header       http.Header
	Body         []byte // the raw request body
}

// Message is one message of a Request. Content is the text content (text
// parts of an array content are joined); Reasoning is reasoning_content;
// Images are the URLs of its image_url parts (data: URLs as sent).
type Message struct {
	Role       string
	Content    string
	Images     []string
	Reasoning  string
	ToolCalls  []Call
	ToolCallID string
}

// ToolSpec is one offered function tool.
type ToolSpec struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// LastUser returns the content of the last user message, or "".
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Last returns the last message, or the zero Message when there is none.
func (r Request) Last() Message {
	if len(r.Messages) == 0 {
		return Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

// clone returns a deep copy of r.
func (r Request) clone() Request {
	c := r
	c.Messages = make([]Message, len(r.Messages))
	for i, m := range r.Messages {
		m.ToolCalls = slices.Clone(m.ToolCalls)
		m.Images = slices.Clone(m.Images)
		c.Messages[i] = m
	}
	c.Tools = slices.Clone(r.Tools)
	c.ToolSpecs = make([]ToolSpec, len(r.ToolSpecs))
	for i, t := range r.ToolSpecs {
		t.Parameters = slices.Clone(t.Parameters)
		c.ToolSpecs[i] = t
	}
	c.Header = r.Header.Clone()
	c.Body = slices.Clone(r.Body)
	return c
}

// Wire shapes of a request.
type wireRequest struct {
	Model         *string         `json:"model"`
	Messages      []wireMessage   `json:"messages"`
	Tools         []wireTool      `json:"tools"`
	Stream        bool            `json:"stream"`
	StreamOptions *wireStreamOpts `json:"stream_options"`
}

type wireStreamOpts struct {
	IncludeUsage bool `json:"include_usage"`
}

type wireMessage struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	ToolCalls        []wireToolCall  `json:"tool_calls"`
	ToolCallID       *string         `json:"tool_call_id"`
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function *struct {
		Name      *string `json:"name"`
		Arguments *string `json:"arguments"`
	} `json:"function"`
}

type wireTool struct {
	Type     string `json:"type"`
	Function *struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// badRequest is a validation failure: the message and the offending param.
type badRequest struct {
	msg, param string
}

func (e *badRequest) Error() string {
	if e.param != "" {
		return e.param + ": " + e.msg
	}
	return e.msg
}

var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// decode parses and validates a request body like the real API does. It
// always returns what it could decode; err is non-nil when the request must
// be refused with 400.
func decode(body []byte) (Request, *badRequest) {
	req := Request{Body: body}
	var w wireRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&w); err != nil {
		return req, &badRequest{msg: fmt.Sprintf("We could not parse the JSON body of your request (%v).", err)}
	}
	req.Stream = w.Stream
	if w.StreamOptions != nil {
		req.IncludeUsage = w.StreamOptions.IncludeUsage
	}
	for _, t := range w.Tools {
		if t.Function == nil {
			req.Tools = append(req.Tools, "")
			req.ToolSpecs = append(req.ToolSpecs, ToolSpec{})
			continue
		}
		req.Tools = append(req.Tools, t.Function.Name)
		req.ToolSpecs = append(req.ToolSpecs, ToolSpec{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	for _, m := range w.Messages {
		msg := Message{Role: m.Role, Content: textOf(m.Content), Images: imagesOf(m.Content), Reasoning: m.ReasoningContent}
		if m.ToolCallID != nil {
			msg.ToolCallID = *m.ToolCallID
		}
		for _, c := range m.ToolCalls {
			call := Call{ID: c.ID}
			if c.Function != nil {
				if c.Function.Name != nil {
					call.Name = *c.Function.Name
				}
				if c.Function.Arguments != nil {
					call.Args = *c.Function.Arguments
				}
			}
			msg.ToolCalls = append(msg.ToolCalls, call)
		}
		req.Messages = append(req.Messages, msg)
	}
	if w.Model == nil || *w.Model == "" {
		return req, &badRequest{msg: "you must provide a model parameter", param: "model"}
	}
	req.Model = *w.Model
	if w.StreamOptions != nil && !w.Stream {
		return req, &badRequest{msg: "The 'stream_options' parameter is only allowed when 'stream' is enabled.", param: "stream_options"}
	}
	if bad := validateTools(w.Tools); bad != nil {
		return req, bad
	}
	return req, validateMessages(w.Messages)
}

// textOf returns the text of a content field: a string, or the text parts
// of an array, joined.
func textOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}

// imagesOf returns the URLs of the image_url parts of a content array.
func imagesOf(raw json.RawMessage) []string {
	var parts []struct {
		Type     string `json:"type"`
		ImageURL *struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	var out []string
	for _, p := range parts {
		if p.Type == "image_url" && p.ImageURL != nil {
			out = append(out, p.ImageURL.URL)
		}
	}
	return out
}

// present reports whether a content field was given and is not null.
func present(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

func validateTools(tools []wireTool) *badRequest {
	for i, t := range tools {
		p := fmt.Sprintf("tools[%d]", i)
		if t.Type != "function" {
			return &badRequest{msg: fmt.Sprintf("Invalid value: '%s'. Supported values are: 'function'.", t.Type), param: p + ".type"}
		}
		if t.Function == nil {
			return &badRequest{msg: "Missing required parameter: 'function'.", param: p + ".function"}
		}
		if !toolNameRE.MatchString(t.Function.Name) {
			return &badRequest{msg: fmt.Sprintf("Invalid 'tools[%d].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$' of at most 64 characters.", i), param: p + ".function.name"}
		}
		if len(t.Function.Parameters) > 0 {
			var obj map[string]any
			if json.Unmarshal(t.Function.Parameters, &obj) != nil || obj == nil {
				return &badRequest{msg: "Invalid schema for function '" + t.Function.Name + "': schema must be a JSON Schema of 'type: \"object\"'.", param: p + ".function.parameters"}
			}
		}
	}
	return nil
}

// validateMessages checks the conversation like the real API: known
// roles, required contents, and every assistant tool call answered by a
// tool message before the next non-tool message, with no orphan tool
// messages.
func validateMessages(msgs []wireMessage) *badRequest {
	if len(msgs) == 0 {
		return &badRequest{msg: "[] is too short - 'messages'", param: "messages"}
	}
	var pending []string // unanswered call ids of the last assistant message
	open := false        // the last non-tool message was an assistant message with tool_calls
	unanswered := func() *badRequest {
		if len(pending) == 0 {
			return nil
		}
		return &badRequest{
			msg:   "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: " + strings.Join(pending, ", "),
			param: "messages",
		}
	}
	for i, m := range msgs {
		p := fmt.Sprintf("messages[%d]", i)
		switch m.Role {
		case "system", "developer", "user":
			if bad := unanswered(); bad != nil {
				return bad
			}
			open = false
			if !present(m.Content) {
				return &badRequest{msg: fmt.Sprintf("Missing required parameter: '%s.content'.", p), param: p + ".content"}
			}
		case "assistant":
			if bad := unanswered(); bad != nil {
				return bad
			}
			if !present(m.Content) && len(m.ToolCalls) == 0 {
				return &badRequest{msg: fmt.Sprintf("Invalid value for '%s': an assistant message must have 'content' or 'tool_calls'.", p), param: p}
			}
			open = len(m.ToolCalls) > 0
			pending = nil
			seen := map[string]bool{}
			for j, c := range m.ToolCalls {
				cp := fmt.Sprintf("%s.tool_calls[%d]", p, j)
				switch {
				case c.ID == "":
					return &badRequest{msg: fmt.Sprintf("Missing required parameter: '%s.id'.", cp), param: cp + ".id"}
				case seen[c.ID]:
					return &badRequest{msg: fmt.Sprintf("Duplicate tool call id '%s' in '%s'.", c.ID, p), param: cp + ".id"}
				case c.Type != "function":
					return &badRequest{msg: fmt.Sprintf("Missing or invalid '%s.type': expected 'function'.", cp), param: cp + ".type"}
				case c.Function == nil:
					return &badRequest{msg: fmt.Sprintf("Missing required parameter: '%s.function'.", cp), param: cp + ".function"}
				case c.Function.Name == nil:
					return &badRequest{msg: fmt.Sprintf("Missing required parameter: '%s.function.name'.", cp), param: cp + ".function.name"}
				case c.Function.Arguments == nil:
					return &badRequest{msg: fmt.Sprintf("Missing required parameter: '%s.function.arguments'.", cp), param: cp + ".function.arguments"}
				}
				seen[c.ID] = true
				pending = append(pending, c.ID)
			}
		case "tool":
			if m.ToolCallID == nil || *m.ToolCallID == "" {
				return &badRequest{msg: fmt.Sprintf("Missing required parameter: '%s.tool_call_id'.", p), param: p + ".tool_call_id"}
			}
			if !present(m.Content) {
				return &badRequest{msg: fmt.Sprintf("Missing required parameter: '%s.content'.", p), param: p + ".content"}
			}
			k := slices.Index(pending, *m.ToolCallID)
			if !open || k < 0 {
				return &badRequest{msg: fmt.Sprintf("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (tool_call_id '%s' at %s).", *m.ToolCallID, p), param: p + ".role"}
			}
			pending = slices.Delete(pending, k, k+1)
		default:
			return &badRequest{msg: fmt.Sprintf("Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.", m.Role), param: p + ".role"}
		}
	}
	return unanswered()
}
