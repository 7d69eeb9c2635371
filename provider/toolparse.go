package provider

import (
	"errors"
	"strings"
)

// toolParseMark starts the message Ollama sends, as HTTP 500 or as an
// error event, when it cannot parse the tool call the model wrote (ollama
// harmony/harmonyparser.go line 445: "error parsing tool call:
// raw='…', err=…").
const toolParseMark = "error parsing tool call"

// ToolCallParseError reports whether err is a server's refusal of a tool
// call the model wrote badly (Ollama's "error parsing tool call"), and
// returns what the model wrote as the server quoted it (the raw='…'
// part, "" when it is not quoted). It is the model's mistake, not the
// server's: Stream does not retry it, and the caller may ask the model
// again with a note.
func ToolCallParseError(err error) (raw string, ok bool) {
	var ae *APIError
	if !errors.As(err, &ae) || !strings.Contains(ae.Message, toolParseMark) {
		return "", false
	}
	msg := ae.Message
	i := strings.Index(msg, "raw='")
	if i < 0 {
		return "", true
	}
	raw = msg[i+len("raw='"):]
	if j := strings.LastIndex(raw, "', err="); j >= 0 {
		raw = raw[:j]
	} else {
		raw = strings.TrimSuffix(raw, "'")
	}
	return raw, true
}
