package provider

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"
)

// Tool calls written as text: what a model writes when the server did not
// parse its call (no tool parser, a template without tools). The formats
// and where each is defined are listed in testdata/local/README.md.
const (
	hermesOpen  = "<tool_call>"  // Hermes, Qwen2.5, Qwen3, Qwen3-Coder, GLM-4.5 to 4.7, Granite 3.1
	hermesClose = "</tool_call>" // the end of one call
	mistralMark = "[TOOL_CALLS]" // Mistral
	mistralArgs = "[ARGS]"       // Mistral's newer name[ARGS]{...} form
	mistralID   = "[CALL_ID]"    // Mistral's name[CALL_ID]id[ARGS]{...} form
	pythonTag   = "<|python_tag|>"
	wsChars     = " \t\r\n"
	// maxRecoveredCall caps the calls recovered from one message, and the
	// markers tried in one text.
	maxRecoveredCall = 64
	// wholeDecided: a possible whole-message call is looked at again
	// while it is this short; past it, it is held to the end.
	wholeDecided = 256
)

// The names of the formats, as Response.Recovered reports them.
const (
	FormatHermes     = "Hermes <tool_call> JSON"
	FormatQwenXML    = "Qwen3-Coder <function=…> XML"
	FormatGLM        = "GLM <arg_key>/<arg_value>"
	FormatGranite    = "Granite JSON list"
	FormatMistral    = "Mistral [TOOL_CALLS]"
	FormatLlamaJSON  = "Llama 3 JSON"
	FormatFencedJSON = "JSON call in a ```json fence"
	FormatPythonic   = "pythonic [f(x=…)]"
	FormatLFM2       = "LFM2 pythonic"
	FormatGemma      = "Gemma 4 <|tool_call>"
	FormatKimi       = "Kimi-K2 tool-call section"
	FormatDeepSeekV3 = "DeepSeek V3 tool calls"
	FormatDeepSeek31 = "DeepSeek V3.1 tool calls"
	FormatMiniMax    = "MiniMax-M2 <invoke>"
	FormatLMStudio   = "LM Studio [TOOL_REQUEST]"
	FormatHarmony    = "gpt-oss Harmony"
)

// textCall is one call found in text, before it gets an id.
type textCall struct {
	name string
	args string
}

// markParser reads calls from text that starts with its marker: the
// calls, the format, the text after them, and ok false when the text
// there is not calls of offered tools.
type markParser func(t string, tools []ToolSpec) (calls []textCall, format, rest string, ok bool)

// callMark is a marker that starts calls written as text, anywhere in an
// answer, and the parser of what follows it.
type callMark struct {
	mark  string
	parse markParser
}

// callMarks is the table of markers (never written to). A marker that is
// the start of another must come after it.
var callMarks = []callMark{
	{hermesOpen, parseHermes},
	{"<function=", parseQwenBare},
	{mistralMark, parseMistral},
	{"<|tool_call|>", parseGranite},
	{"<|tool_call>", parseGemma},
	{kimiSection, parseKimi},
	{kimiSection1, parseKimi},
	{dsCalls, parseDeepSeek},
	{"<minimax:tool_call>", parseMiniMax},
	{lfmStart, parseLFM2},
	{lmsOpen, parseLMStudio},
}

// parseMarked reads the calls at the start of t, which starts with a
// marker.
func parseMarked(t string, tools []ToolSpec) ([]textCall, string, string, bool) {
	for _, m := range callMarks {
		if strings.HasPrefix(t, m.mark) {
			return m.parse(t, tools)
		}
	}
	return nil, "", t, false
}

// parseTextCalls reads text held from a marker on, or a whole message
// (whole), as calls of the tools offered. It returns the text before the
// calls, the calls and the format, or ok false when the text is not
// calls: a tool that is not offered, arguments that are not a JSON object
// even after repair, for a whole message anything besides the calls.
func parseTextCalls(text string, whole bool, tools []ToolSpec) (before string, calls []textCall, format string, ok bool) {
	if whole {
		calls, format, ok = parseWhole(strings.TrimSpace(text), tools)
		if ok {
			return "", calls, format, true
		}
	}
	before, calls, format, _, ok = firstCall(text, tools)
	return before, calls, format, ok
}

// parseWhole reads a message that is nothing but calls: Llama 3 JSON
// (one object, or several separated by ";", perhaps after
// <|python_tag|>), a JSON list of calls (Granite), a pythonic list
// (Llama 3.2, Llama 4), or one of those in a ```json fence.
func parseWhole(t string, tools []ToolSpec) ([]textCall, string, bool) {
	switch {
	case strings.HasPrefix(t, pythonTag):
		calls, ok := parseJSONCalls(strings.TrimSpace(t[len(pythonTag):]), tools)
		return calls, FormatLlamaJSON, ok
	case strings.HasPrefix(t, "{"):
		calls, ok := parseJSONCalls(t, tools)
		return calls, FormatLlamaJSON, ok
	case strings.HasPrefix(t, "["):
		if strings.HasPrefix(strings.TrimLeft(t[1:], wsChars), "{") {
			calls, rest, ok := jsonListCalls(t, tools)
			return calls, FormatGranite, ok && strings.TrimSpace(rest) == ""
		}
		calls, rest, ok := parsePythonic(t, tools)
		return calls, FormatPythonic, ok && strings.TrimSpace(rest) == ""
	case strings.HasPrefix(t, "```"):
		inner, ok := fenced(t)
		if !ok || strings.HasPrefix(inner, "```") {
			return nil, "", false
		}
		calls, _, ok := parseWhole(inner, tools)
		return calls, FormatFencedJSON, ok
	}
	return nil, "", false
}

// fenced returns what a message that is one fenced block (```json or a
// bare ```) holds.
func fenced(t string) (string, bool) {
	first, body, ok := strings.Cut(t, "\n")
	info := strings.ToLower(strings.TrimSpace(strings.TrimLeft(first, "`")))
	if !ok || (info != "" && info != "json") || !strings.HasSuffix(t, "```") {
		return "", false
	}
	body = strings.TrimSuffix(body, "```")
	return strings.TrimSpace(body), !strings.Contains(body, "```")
}

// wholeStart reports whether an answer that starts with rest may be a
// whole-message call.
func wholeStart(rest string) bool {
	return strings.HasPrefix(rest, "{") || strings.HasPrefix(rest, "[") ||
		strings.HasPrefix(rest, "```") || strings.HasPrefix(rest, pythonTag)
}

// isWholePrefix reports whether rest is a proper start of "```" or of
// <|python_tag|>: the next piece decides.
func isWholePrefix(rest string) bool {
	return (len(rest) < 3 && strings.HasPrefix("```", rest)) ||
		(len(rest) < len(pythonTag) && strings.HasPrefix(pythonTag, rest))
}

// mayBeWhole reports whether the start of an answer, s, may still be a
// whole-message call (see parseWhole): false as soon as it cannot.
func mayBeWhole(s string) bool {
	t := strings.TrimLeft(s, wsChars)
	switch {
	case strings.HasPrefix(t, pythonTag):
		return true
	case strings.HasPrefix(t, "```"):
		info, body, ok := strings.Cut(strings.TrimLeft(t, "`"), "\n")
		info = strings.ToLower(strings.TrimSpace(info))
		if !ok {
			return strings.HasPrefix("json", info)
		}
		body = strings.TrimLeft(body, wsChars)
		if info != "json" && info != "" {
			return false
		}
		return body == "" || (body[0] == '{' || body[0] == '[') && mayBeWhole(body)
	case strings.HasPrefix(t, "{"):
		r := strings.TrimLeft(t[1:], wsChars)
		return r == "" || r[0] == '"' || r[0] == '\''
	case strings.HasPrefix(t, "["):
		return mayBeList(strings.TrimLeft(t[1:], wsChars))
	}
	return false
}

// mayBeList reports whether r, what follows the "[" that starts an
// answer, may be a JSON list of calls or a pythonic list.
func mayBeList(r string) bool {
	if r == "" || r[0] == '{' {
		return r == "" || mayBeWhole(r)
	}
	for i := 0; i < len(r); i++ {
		b := r[i]
		switch {
		case b == '(':
			return i > 0
		case b == '_' || b == '.' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || (i > 0 && b >= '0' && b <= '9'):
		default:
			return false
		}
	}
	return true
}

// parseHermes reads one or more <tool_call>…</tool_call> blocks with
// nothing but white space between them. Each holds a JSON call (Hermes,
// Qwen), Qwen3-Coder's <function=…> XML, a JSON list (Granite 3.1) or
// GLM's NAME<arg_key>…</arg_key><arg_value>…</arg_value>. A missing last
// closing tag is allowed (the model stopped on it); then the text after a
// JSON call is the text after the calls.
func parseHermes(t string, tools []ToolSpec) ([]textCall, string, string, bool) {
	return blockCalls(t, hermesOpen, hermesClose, func(body string) ([]textCall, string, string, bool) {
		return hermesBody(body, tools)
	})
}

// blockCalls reads one or more OPEN…CLOSE blocks with nothing but white
// space between them at the start of t, what each holds (trimmed) read
// by read: the calls, their format, and the text after them in the
// block, which must be white space when the block is closed; a last
// block not closed (the model stopped on it) ends with the calls, and
// that text is the text after them.
func blockCalls(t, open, close string, read func(body string) ([]textCall, string, string, bool)) (calls []textCall, format, rest string, ok bool) {
	for len(calls) < maxRecoveredCall {
		r := strings.TrimLeft(t, wsChars)
		if !strings.HasPrefix(r, open) {
			break
		}
		body, after, closed := strings.Cut(r[len(open):], close)
		cs, f, left, ok := read(strings.TrimSpace(body))
		if !ok || (closed && strings.TrimSpace(left) != "") {
			return nil, "", t, false
		}
		if !closed {
			after = left
		}
		calls = append(calls, cs...)
		format = cmp.Or(format, f)
		t = after
	}
	return calls, format, t, len(calls) > 0
}

// hermesBody reads what one <tool_call> block holds, and returns the
// text after the call in it.
func hermesBody(b string, tools []ToolSpec) (calls []textCall, format, left string, ok bool) {
	switch {
	case strings.HasPrefix(b, "{"):
		if c, ok := parseJSONCall(b, tools, "arguments", "parameters"); ok {
			return []textCall{c}, FormatHermes, "", true // the usual case: one pass
		}
		raw, left, ok := firstJSON(b) // text after the call, the closing tag missing
		if !ok {
			return nil, "", b, false
		}
		c, ok := parseJSONCall(string(raw), tools, "arguments", "parameters")
		return []textCall{c}, FormatHermes, left, ok
	case strings.HasPrefix(b, qwenFunc):
		calls, left, ok := parseQwenFunctions(b, tools)
		return calls, FormatQwenXML, left, ok
	case strings.HasPrefix(b, "["):
		calls, left, ok := jsonListCalls(b, tools)
		return calls, FormatGranite, left, ok
	}
	c, ok := parseGLM(b, tools)
	return []textCall{c}, FormatGLM, "", ok
}

// parseMistral reads what follows [TOOL_CALLS]: a JSON list of calls
// (v3 templates), or NAME[ARGS]{json} (v11 on; NAME[CALL_ID]ID[ARGS]{json}
// in some), possibly repeated with [TOOL_CALLS] before each.
func parseMistral(t string, tools []ToolSpec) (calls []textCall, format, rest string, ok bool) {
	for len(calls) < maxRecoveredCall {
		r := strings.TrimLeft(t, wsChars)
		if !strings.HasPrefix(r, mistralMark) {
			break
		}
		r = strings.TrimLeft(r[len(mistralMark):], wsChars)
		var cs []textCall
		if strings.HasPrefix(r, "[") {
			cs, r, ok = jsonListCalls(r, tools)
		} else {
			var c textCall
			c, r, ok = mistralNamed(r, tools)
			cs = []textCall{c}
		}
		if !ok {
			return nil, "", t, false
		}
		calls = append(calls, cs...)
		t = r
	}
	return calls, FormatMistral, t, len(calls) > 0
}

// mistralNamed reads NAME[ARGS]{json}: only a tool that is offered.
func mistralNamed(r string, tools []ToolSpec) (textCall, string, bool) {
	name, after, found := strings.Cut(r, mistralArgs)
	name, _, _ = strings.Cut(name, mistralID)
	name = strings.TrimSpace(name)
	if !found || strings.ContainsAny(name, wsChars) || !known(name, tools) {
		return textCall{}, r, false
	}
	after = strings.TrimLeft(after, wsChars)
	raw, rest, ok := firstJSON(after)
	if !ok {
		raw, rest = json.RawMessage(after), ""
	}
	obj, ok := argsObject(raw)
	return textCall{name: name, args: obj}, rest, ok
}

// firstJSON reads the first JSON value of t and returns it and the text
// after it.
func firstJSON(t string) (json.RawMessage, string, bool) {
	dec := json.NewDecoder(strings.NewReader(t))
	var raw json.RawMessage
	if dec.Decode(&raw) != nil {
		return nil, t, false
	}
	return raw, t[dec.InputOffset():], true
}

// jsonListCalls reads a JSON list of calls at the start of t (mended when
// it is slightly broken, then it must be all of t) and the text after it.
func jsonListCalls(t string, tools []ToolSpec) ([]textCall, string, bool) {
	raw, rest, ok := firstJSON(t)
	if !ok {
		fixed, mended := RepairJSON(t)
		if !mended {
			return nil, t, false
		}
		raw, rest = json.RawMessage(fixed), ""
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil || len(list) == 0 || len(list) > maxRecoveredCall {
		return nil, t, false
	}
	calls := make([]textCall, 0, len(list))
	for _, r := range list {
		c, ok := parseJSONCall(string(r), tools, "arguments", "parameters")
		if !ok {
			return nil, t, false
		}
		calls = append(calls, c)
	}
	return calls, rest, true
}

// parseJSONCalls reads Llama 3's whole-message calls: one JSON object,
// or several separated by ";", and nothing else.
func parseJSONCalls(t string, tools []ToolSpec) ([]textCall, bool) {
	var calls []textCall
	for len(calls) < maxRecoveredCall {
		raw, rest, ok := firstJSON(t)
		if !ok && len(calls) == 0 {
			c, ok := parseJSONCall(t, tools, "parameters", "arguments") // perhaps mended
			return []textCall{c}, ok
		}
		if !ok {
			return nil, false
		}
		c, ok := parseJSONCall(string(raw), tools, "parameters", "arguments")
		if !ok {
			return nil, false
		}
		calls = append(calls, c)
		t = strings.TrimSpace(rest)
		if t == "" {
			return calls, true
		}
		if !strings.HasPrefix(t, ";") {
			return nil, false
		}
		t = strings.TrimSpace(t[1:])
		if t == "" {
			return calls, true
		}
	}
	return nil, false
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

// typedValue turns a parameter's value written as text into JSON: JSON
// when the schema says the parameter is not a string (or, with
// untyped true, says nothing of it) and the value parses, else the text
// as a string.
func typedValue(val, typ string, untyped bool) json.RawMessage {
	v := strings.TrimSpace(val)
	if typ != "string" && (typ != "" || untyped) && json.Valid([]byte(v)) {
		return json.RawMessage(v)
	}
	b, _ := json.Marshal(val)
	return b
}

// marshalArgs returns arguments as the text of a JSON object.
func marshalArgs(args map[string]json.RawMessage) (string, bool) {
	b, err := json.Marshal(args)
	return string(b), err == nil
}
