package provider

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// Tool calls written as text: what a model writes when the server did not
// parse its call (no tool parser, a template without tools). The formats
// and where each is defined are listed in testdata/local/README.md.
const (
	hermesOpen  = "<tool_call>"  // Hermes, Qwen2.5, Qwen3 and Qwen3-Coder
	hermesClose = "</tool_call>" // the end of one call
	mistralMark = "[TOOL_CALLS]" // Mistral
	mistralArgs = "[ARGS]"       // Mistral's newer name[ARGS]{...} form
)

// The names of the formats, as Response.Recovered reports them.
const (
	FormatHermes     = "Hermes <tool_call> JSON"
	FormatQwenXML    = "Qwen3-Coder <tool_call> XML"
	FormatMistral    = "Mistral [TOOL_CALLS]"
	FormatLlamaJSON  = "Llama 3.1 JSON"
	pythonTag        = "<|python_tag|>" // Llama 3.1 may start a call with it
	maxRecoveredCall = 64               // calls recovered from one message at most
)

// textCall is one call found in text, before it gets an id.
type textCall struct {
	name string
	args string
}

// callHold watches the answer text for the start of a call written as
// text and holds everything from there until the stream ends, so that the
// markup never shows as the answer when it turns out to be a call. It
// also holds an answer that starts with "{" (Llama 3.1 writes a whole
// message that is one JSON call). Text that may be the start of a marker
// is held until the next piece decides.
type callHold struct {
	started bool            // answer text other than white space came
	holding bool            // a marker (or a leading "{") came: hold to the end
	held    string          // the start of a marker, not yet decided
	all     strings.Builder // while holding: everything from the marker on
}

// feed returns the part of s that can be shown now.
func (c *callHold) feed(s string) string {
	if c.holding {
		c.all.WriteString(s)
		return ""
	}
	s, c.held = c.held+s, ""
	if !c.started {
		rest := strings.TrimLeft(s, " \t\r\n")
		if rest == "" {
			return s
		}
		if len(rest) < len(pythonTag) && strings.HasPrefix(pythonTag, rest) {
			c.held = s // perhaps Llama's tag: the next piece decides
			return ""
		}
		c.started = true
		if strings.HasPrefix(rest, "{") || strings.HasPrefix(rest, pythonTag) {
			c.hold(s)
			return ""
		}
	}
	i := firstMarker(s)
	if i >= 0 {
		c.hold(s[i:])
		return s[:i]
	}
	k := max(partialTag(s, hermesOpen), partialTag(s, mistralMark))
	c.held = s[len(s)-k:]
	return s[:len(s)-k]
}

// hold starts holding everything, from s on.
func (c *callHold) hold(s string) {
	c.holding = true
	c.all.WriteString(s)
}

// take returns and forgets everything held.
func (c *callHold) take() string {
	s := c.held + c.all.String()
	c.held = ""
	c.all.Reset()
	return s
}

// pending returns what is held, without taking it.
func (c *callHold) pending() string { return c.held + c.all.String() }

// firstMarker returns where the first call marker in s starts, -1 when
// there is none.
func firstMarker(s string) int {
	i, j := strings.Index(s, hermesOpen), strings.Index(s, mistralMark)
	if i < 0 || (j >= 0 && j < i) {
		return j
	}
	return i
}

// parseTextCalls reads text (from the first marker, or a whole message)
// as calls of the tools offered. It returns the calls and the format, or
// ok false when the text is not unambiguously calls: something else
// besides the calls, a tool that does not exist, arguments that are not
// a JSON object even after repair.
func parseTextCalls(text string, tools []ToolSpec) (calls []textCall, format string, ok bool) {
	t := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(t, hermesOpen):
		return parseHermes(t, tools)
	case strings.HasPrefix(t, mistralMark):
		calls, ok = parseMistral(strings.TrimSpace(t[len(mistralMark):]), tools)
		return calls, FormatMistral, ok
	case strings.HasPrefix(t, "{") || strings.HasPrefix(t, pythonTag):
		c, ok := parseJSONCall(strings.TrimSpace(strings.TrimPrefix(t, pythonTag)), tools, "parameters", "arguments")
		return []textCall{c}, FormatLlamaJSON, ok
	}
	return nil, "", false
}

// parseHermes reads one or more <tool_call>…</tool_call> blocks with
// nothing but white space between them; each holds a JSON call or
// Qwen3-Coder's <function=…> XML. A missing last closing tag is allowed
// (the model stopped on it).
func parseHermes(t string, tools []ToolSpec) (calls []textCall, format string, ok bool) {
	for t != "" {
		if !strings.HasPrefix(t, hermesOpen) || len(calls) >= maxRecoveredCall {
			return nil, "", false
		}
		t = t[len(hermesOpen):]
		body, rest, closed := strings.Cut(t, hermesClose)
		if !closed {
			rest = ""
		}
		body = strings.TrimSpace(body)
		var c textCall
		if strings.HasPrefix(body, "<function=") {
			c, ok = parseQwenXML(body, tools)
			format = FormatQwenXML
		} else {
			c, ok = parseJSONCall(body, tools, "arguments", "parameters")
			if format == "" {
				format = FormatHermes
			}
		}
		if !ok {
			return nil, "", false
		}
		calls = append(calls, c)
		t = strings.TrimSpace(rest)
	}
	return calls, format, len(calls) > 0
}

// parseMistral reads what follows [TOOL_CALLS]: a JSON array of calls
// (v3 templates), or name[ARGS]{json} (newer ones), possibly repeated
// with [TOOL_CALLS] between calls.
func parseMistral(t string, tools []ToolSpec) ([]textCall, bool) {
	if strings.HasPrefix(t, "[") {
		var raw []json.RawMessage
		if json.Unmarshal([]byte(t), &raw) != nil || len(raw) == 0 || len(raw) > maxRecoveredCall {
			return nil, false
		}
		calls := make([]textCall, 0, len(raw))
		for _, r := range raw {
			c, ok := parseJSONCall(string(r), tools, "arguments", "parameters")
			if !ok {
				return nil, false
			}
			calls = append(calls, c)
		}
		return calls, true
	}
	var calls []textCall
	for _, part := range strings.Split(t, mistralMark) {
		name, args, found := strings.Cut(strings.TrimSpace(part), mistralArgs)
		if !found || !known(strings.TrimSpace(name), tools) || len(calls) >= maxRecoveredCall {
			return nil, false
		}
		obj, ok := argsObject(json.RawMessage(strings.TrimSpace(args)))
		if !ok {
			return nil, false
		}
		calls = append(calls, textCall{name: strings.TrimSpace(name), args: obj})
	}
	return calls, len(calls) > 0
}

// parseJSONCall reads one JSON object {"name": …, argsKey: {…}} (the
// first of argsKeys present; none present means no arguments). Other
// keys are allowed only if they are "type" or "id" (some models copy the
// API's shape); anything else makes it not a call.
func parseJSONCall(t string, tools []ToolSpec, argsKeys ...string) (textCall, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &obj) != nil {
		fixed, ok := RepairJSON(t)
		if !ok || json.Unmarshal([]byte(fixed), &obj) != nil {
			return textCall{}, false
		}
	}
	var name string
	if json.Unmarshal(obj["name"], &name) != nil || !known(name, tools) {
		return textCall{}, false
	}
	args, used := json.RawMessage("{}"), ""
	for _, k := range argsKeys {
		if v, ok := obj[k]; ok {
			args, used = v, k
			break
		}
	}
	for k := range obj {
		if k != "name" && k != used && k != "type" && k != "id" {
			return textCall{}, false
		}
	}
	s, ok := argsObject(args)
	return textCall{name: name, args: s}, ok
}

// argsObject returns arguments as the text of a JSON object: an object as
// it is, a string that holds an object (arguments sent encoded) decoded,
// slightly broken JSON repaired.
func argsObject(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(strings.TrimSpace(s))
	}
	if !json.Valid(raw) {
		fixed, ok := RepairJSON(string(raw))
		if !ok {
			return "", false
		}
		raw = json.RawMessage(fixed)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return "", false
	}
	return string(raw), true
}

// qwenFunction and qwenParam match Qwen3-Coder's XML call.
var (
	qwenFunction = regexp.MustCompile(`^<function=([^>\n]+)>([\s\S]*?)(?:</function>)?$`)
	qwenParam    = regexp.MustCompile(`<parameter=([^>\n]+)>\n?([\s\S]*?)\n?</parameter>`)
)

// parseQwenXML reads <function=NAME><parameter=KEY>VALUE</parameter>…
// </function>. A value is JSON when the tool's schema says the parameter
// is not a string and the value parses, else the text as a string. Text
// between the parameters other than white space makes it not a call.
func parseQwenXML(body string, tools []ToolSpec) (textCall, bool) {
	m := qwenFunction.FindStringSubmatch(strings.TrimSpace(body))
	if m == nil {
		return textCall{}, false
	}
	name := strings.TrimSpace(m[1])
	spec, found := specOf(name, tools)
	if !found {
		return textCall{}, false
	}
	types := paramTypes(spec)
	args := map[string]json.RawMessage{}
	inner := m[2]
	for _, p := range qwenParam.FindAllStringSubmatchIndex(inner, -1) {
		key := strings.TrimSpace(inner[p[2]:p[3]])
		val := inner[p[4]:p[5]]
		if t := types[key]; t != "" && t != "string" && json.Valid([]byte(strings.TrimSpace(val))) {
			args[key] = json.RawMessage(strings.TrimSpace(val))
		} else {
			b, _ := json.Marshal(val)
			args[key] = b
		}
	}
	if strings.TrimSpace(qwenParam.ReplaceAllString(inner, "")) != "" {
		return textCall{}, false
	}
	b, err := json.Marshal(args)
	if err != nil {
		return textCall{}, false
	}
	return textCall{name: name, args: string(b)}, true
}

// specOf finds the offered tool called name.
func specOf(name string, tools []ToolSpec) (ToolSpec, bool) {
	for _, t := range tools {
		if t.Name == name {
			return t, true
		}
	}
	return ToolSpec{}, false
}

// known reports whether a tool called name is offered.
func known(name string, tools []ToolSpec) bool {
	_, ok := specOf(name, tools)
	return name != "" && ok
}

// paramTypes returns the JSON schema type of each top-level parameter of
// a tool ("" when it has none or several).
func paramTypes(t ToolSpec) map[string]string {
	var schema struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(t.Parameters, &schema)
	out := map[string]string{}
	for k, p := range schema.Properties {
		var s string
		if json.Unmarshal(p.Type, &s) == nil {
			out[k] = s
		}
	}
	return out
}
