package provider

import (
	"encoding/json"
	"strings"
)

// The markup of the tag formats of calls written as text; each format's
// source is in testdata/local/README.md.
const (
	qwenFunc        = "<function="
	qwenFuncEnd     = "</function>"
	qwenParamOpen   = "<parameter="
	qwenParamEnd    = "</parameter>"
	glmKey          = "<arg_key>"
	glmKeyEnd       = "</arg_key>"
	glmValue        = "<arg_value>"
	glmValueEnd     = "</arg_value>"
	kimiSection     = "<|tool_calls_section_begin|>"
	kimiSection1    = "<|tool_call_section_begin|>" // the singular variant
	kimiSectionEnd  = "<|tool_calls_section_end|>"
	kimiSectionEnd1 = "<|tool_call_section_end|>"
	kimiCall        = "<|tool_call_begin|>"
	kimiArgs        = "<|tool_call_argument_begin|>"
	kimiCallEnd     = "<|tool_call_end|>"
	dsCalls         = "<｜tool▁calls▁begin｜>"
	dsCallsEnd      = "<｜tool▁calls▁end｜>"
	dsCall          = "<｜tool▁call▁begin｜>"
	dsSep           = "<｜tool▁sep｜>"
	dsCallEnd       = "<｜tool▁call▁end｜>"
	dsEOS           = "<｜end▁of▁sentence｜>"
	mmOpen          = "<minimax:tool_call>"
	mmClose         = "</minimax:tool_call>"
	mmInvoke        = "<invoke name="
	mmInvokeEnd     = "</invoke>"
	mmParam         = "<parameter name="
	graniteTag      = "<|tool_call|>"
	gemmaOpen       = "<|tool_call>"
	gemmaClose      = "<tool_call|>"
	gemmaQuote      = `<|"|>`
	lfmStart        = "<|tool_call_start|>"
	lfmEnd          = "<|tool_call_end|>"
	lmsOpen         = "[TOOL_REQUEST]"
	lmsClose        = "[END_TOOL_REQUEST]"
)

// parseQwenBare reads Qwen3-Coder's <function=…> blocks written without
// the <tool_call> around them.
func parseQwenBare(t string, tools []ToolSpec) ([]textCall, string, string, bool) {
	calls, rest, ok := parseQwenFunctions(t, tools)
	return calls, FormatQwenXML, rest, ok
}

// parseQwenFunctions reads one or more <function=NAME>…</function>
// blocks with nothing but white space between them.
func parseQwenFunctions(t string, tools []ToolSpec) (calls []textCall, rest string, ok bool) {
	for len(calls) < maxRecoveredCall {
		r := strings.TrimLeft(t, wsChars)
		if !strings.HasPrefix(r, qwenFunc) {
			break
		}
		c, after, ok := parseQwenFunction(r, tools)
		if !ok {
			return nil, t, false
		}
		calls = append(calls, c)
		t = after
	}
	return calls, t, len(calls) > 0
}

// parseQwenFunction reads <function=NAME><parameter=KEY>VALUE</parameter>
// …</function>. A value is JSON when the tool's schema says the parameter
// is not a string and the value parses, else the text as a string. As
// the servers' parser does, a missing </parameter> ends at the next
// parameter or </function>, and a missing </function> at the end of the
// text. Text between the parameters makes it not a call.
func parseQwenFunction(t string, tools []ToolSpec) (textCall, string, bool) {
	head, body, ok := strings.Cut(t[len(qwenFunc):], ">")
	name := strings.TrimSpace(head)
	spec, found := specOf(name, tools)
	if !ok || !found {
		return textCall{}, t, false
	}
	types := paramTypes(spec)
	args := map[string]json.RawMessage{}
	for len(args) <= maxRecoveredCall*16 {
		body = strings.TrimLeft(body, wsChars)
		switch {
		case strings.HasPrefix(body, qwenFuncEnd) || body == "":
			s, ok := marshalArgs(args)
			return textCall{name: name, args: s}, strings.TrimPrefix(body, qwenFuncEnd), ok
		case !strings.HasPrefix(body, qwenParamOpen):
			return textCall{}, t, false
		}
		key, val, after, ok := qwenParam(body[len(qwenParamOpen):])
		if !ok {
			return textCall{}, t, false
		}
		args[key] = typedValue(val, types[key], false)
		body = after
	}
	return textCall{}, t, false
}

// qwenParam reads KEY>VALUE up to </parameter>, or to the next parameter
// or </function> when the closing tag is missing.
func qwenParam(s string) (key, val, rest string, ok bool) {
	key, s, ok = strings.Cut(s, ">")
	key = strings.TrimSpace(key)
	if !ok || key == "" || strings.Contains(key, "\n") {
		return "", "", "", false
	}
	end, skip := len(s), 0
	for _, m := range []string{qwenParamEnd, qwenParamOpen, qwenFuncEnd} {
		if i := strings.Index(s, m); i >= 0 && i < end {
			end, skip = i, 0
			if m == qwenParamEnd {
				skip = len(m)
			}
		}
	}
	val = strings.TrimPrefix(s[:end], "\n")
	val = strings.TrimSuffix(val, "\n")
	return key, val, s[end+skip:], true
}

// parseGLM reads GLM's NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>…
// (4.5, 4.6) or the compact NAME<arg_key>K</arg_key><arg_value>V</arg_value>
// (4.7). A value is the text when the schema says the parameter is a
// string, else JSON when it parses.
func parseGLM(body string, tools []ToolSpec) (textCall, bool) {
	end := len(body)
	for _, m := range []string{"\n", glmKey} {
		if i := strings.Index(body, m); i >= 0 && i < end {
			end = i
		}
	}
	name := strings.TrimSpace(body[:end])
	spec, found := specOf(name, tools)
	if !found || strings.ContainsAny(name, wsChars) {
		return textCall{}, false
	}
	types := paramTypes(spec)
	args := map[string]json.RawMessage{}
	rest := body[end:]
	for n := 0; n < maxRecoveredCall*16; n++ {
		rest = glmSpace(rest)
		if rest == "" {
			s, ok := marshalArgs(args)
			return textCall{name: name, args: s}, ok
		}
		key, after, ok1 := cutTag(rest, glmKey, glmKeyEnd)
		val, after, ok2 := cutTag(glmSpace(after), glmValue, glmValueEnd)
		if !ok1 || !ok2 {
			return textCall{}, false
		}
		key = strings.TrimSpace(key)
		args[key] = typedValue(val, types[key], true)
		rest = after
	}
	return textCall{}, false
}

// glmSpace drops white space, and the literal \n GLM-4.7 may write,
// from the start of s.
func glmSpace(s string) string {
	for {
		t := strings.TrimPrefix(strings.TrimLeft(s, wsChars), `\n`)
		if t == s {
			return s
		}
		s = t
	}
}

// cutTag reads OPEN…CLOSE at the start of s: the text inside and what
// follows.
func cutTag(s, open, close string) (inner, rest string, ok bool) {
	if !strings.HasPrefix(s, open) {
		return "", s, false
	}
	return strings.Cut(s[len(open):], close)
}

// parseGranite reads <|tool_call|>[{…}, …] (Granite 3.0).
func parseGranite(t string, tools []ToolSpec) ([]textCall, string, string, bool) {
	calls, rest, ok := jsonListCalls(strings.TrimLeft(t[len(graniteTag):], wsChars), tools)
	return calls, FormatGranite, rest, ok
}

// taggedCalls reads calls written OPEN head SEP body END, one after the
// other with white space between, at the start of r, each made by read;
// ok false when none came, or one is cut or read refuses it.
func taggedCalls(r, open, sep, end string, read func(head, body string) (textCall, bool)) (calls []textCall, rest string, ok bool) {
	for len(calls) < maxRecoveredCall {
		r = strings.TrimLeft(r, wsChars)
		head, after, found := cutTag(r, open, sep)
		if !found {
			break
		}
		body, after, closed := strings.Cut(after, end)
		if !closed {
			return nil, r, false
		}
		c, ok := read(head, body)
		if !ok {
			return nil, r, false
		}
		calls = append(calls, c)
		r = after
	}
	return calls, r, len(calls) > 0
}

// parseKimi reads Kimi-K2's section of calls:
// <|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>…
// The name is the id up to ":", after its last ".".
func parseKimi(t string, tools []ToolSpec) ([]textCall, string, string, bool) {
	_, r, _ := strings.Cut(t, "|>")
	calls, r, ok := taggedCalls(r, kimiCall, kimiArgs, kimiCallEnd, func(id, args string) (textCall, bool) {
		id, _, _ = strings.Cut(strings.TrimSpace(id), ":")
		name := id[strings.LastIndex(id, ".")+1:]
		obj, ok := argsObject(json.RawMessage(args))
		return textCall{name: name, args: obj}, ok && known(name, tools)
	})
	r = strings.TrimLeft(r, wsChars)
	r = strings.TrimPrefix(strings.TrimPrefix(r, kimiSectionEnd), kimiSectionEnd1)
	return calls, FormatKimi, r, ok
}

// parseDeepSeek reads DeepSeek's calls: V3 writes
// <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>,
// V3.1 <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>.
func parseDeepSeek(t string, tools []ToolSpec) ([]textCall, string, string, bool) {
	format := FormatDeepSeek31
	calls, r, ok := taggedCalls(t[len(dsCalls):], dsCall, dsSep, dsCallEnd, func(head, body string) (textCall, bool) {
		name, args := strings.TrimSpace(head), body
		if name == "function" {
			format = FormatDeepSeekV3
			n, fencedArgs, _ := strings.Cut(body, "\n")
			name = strings.TrimSpace(n)
			args = strings.TrimSpace(fencedArgs)
			args = strings.TrimSuffix(strings.TrimPrefix(args, "```json"), "```")
		}
		obj, ok := argsObject(json.RawMessage(args))
		return textCall{name: name, args: obj}, ok && known(name, tools)
	})
	r = strings.TrimPrefix(strings.TrimLeft(r, wsChars), dsCallsEnd)
	r = strings.TrimPrefix(strings.TrimLeft(r, wsChars), dsEOS)
	return calls, format, r, ok
}

// parseMiniMax reads MiniMax-M2's
// <minimax:tool_call><invoke name="NAME"><parameter name="K">V</parameter>…</invoke>…</minimax:tool_call>.
// Values are text, JSON when the schema gives the parameter another type
// and the value parses.
func parseMiniMax(t string, tools []ToolSpec) ([]textCall, string, string, bool) {
	calls, r, ok := taggedCalls(t[len(mmOpen):], mmInvoke, ">", mmInvokeEnd, func(head, body string) (textCall, bool) {
		return miniMaxInvoke(unquote(head), body, tools)
	})
	r = strings.TrimPrefix(strings.TrimLeft(r, wsChars), mmClose)
	return calls, FormatMiniMax, r, ok
}

// miniMaxInvoke reads the parameters of one <invoke>.
func miniMaxInvoke(name, body string, tools []ToolSpec) (textCall, bool) {
	spec, found := specOf(name, tools)
	if !found {
		return textCall{}, false
	}
	types := paramTypes(spec)
	args := map[string]json.RawMessage{}
	for n := 0; n < maxRecoveredCall*16; n++ {
		body = strings.TrimLeft(body, wsChars)
		if body == "" {
			s, ok := marshalArgs(args)
			return textCall{name: name, args: s}, ok
		}
		head, after, ok1 := cutTag(body, mmParam, ">")
		val, after, ok2 := strings.Cut(after, qwenParamEnd)
		if !ok1 || !ok2 {
			return textCall{}, false
		}
		key := unquote(head)
		args[key] = typedValue(strings.TrimSpace(val), types[key], false)
		body = after
	}
	return textCall{}, false
}

// unquote drops the quotes around a name written "name" or 'name'.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// parseGemma reads Gemma 4's <|tool_call>call:NAME{key:<|"|>text<|"|>,n:1}<tool_call|>,
// calls written one after the other.
func parseGemma(t string, tools []ToolSpec) ([]textCall, string, string, bool) {
	return blockCalls(t, gemmaOpen, gemmaClose, func(body string) ([]textCall, string, string, bool) {
		name, args, ok1 := strings.Cut(strings.TrimPrefix(body, "call:"), "{")
		name = strings.TrimSpace(name)
		obj, ok2 := gemmaArgs(strings.TrimSuffix(args, "}"))
		ok := strings.HasPrefix(body, "call:") && ok1 && strings.HasSuffix(args, "}") && ok2 && known(name, tools)
		return []textCall{{name: name, args: obj}}, FormatGemma, "", ok
	})
}

// parseLFM2 reads LFM2's <|tool_call_start|>[f(x=…)]<|tool_call_end|>.
func parseLFM2(t string, tools []ToolSpec) ([]textCall, string, string, bool) {
	calls, rest, ok := parsePythonic(strings.TrimLeft(t[len(lfmStart):], wsChars), tools)
	rest = strings.TrimLeft(rest, wsChars)
	if ok && rest != "" && !strings.HasPrefix(rest, lfmEnd) {
		return nil, "", t, false
	}
	return calls, FormatLFM2, strings.TrimPrefix(rest, lfmEnd), ok
}

// parseLMStudio reads LM Studio's [TOOL_REQUEST]{"name": …, "arguments": {…}}[END_TOOL_REQUEST],
// one or more.
func parseLMStudio(t string, tools []ToolSpec) ([]textCall, string, string, bool) {
	return blockCalls(t, lmsOpen, lmsClose, func(body string) ([]textCall, string, string, bool) {
		raw, left, found := firstJSON(body)
		if !found {
			raw, left = json.RawMessage(body), ""
		}
		c, ok := parseJSONCall(string(raw), tools, "arguments", "parameters")
		return []textCall{c}, FormatLMStudio, left, ok
	})
}
