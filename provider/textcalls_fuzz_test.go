package provider

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzThinkSplit: whatever the model writes, splitting it in two pieces
// anywhere gives what the whole gives, and nothing panics.
func FuzzThinkSplit(f *testing.F) {
	for _, s := range []string{"<think>a</think>b", "a</think>b", "<thi", "</think>", "<think><think></think>", "  <think>\n", "x</th"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		if cut < 0 || cut > len(s) {
			cut = len(s) / 2
		}
		a1, t1 := splitAll([]string{s})
		a2, t2 := splitAll([]string{s[:cut], s[cut:]})
		if a1 != a2 || t1 != t2 {
			t.Errorf("%q cut at %d: %q/%q, whole %q/%q", s, cut, a2, t2, a1, t1)
		}
	})
}

// FuzzParseTextCalls: text from the model never panics the parser, and
// what it recovers names an offered tool with a JSON object of arguments.
func FuzzParseTextCalls(f *testing.F) {
	for _, s := range []string{
		"<tool_call>{\"name\":\"bash\",\"arguments\":{\"command\":\"ls\"}}</tool_call>",
		"<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>",
		"[TOOL_CALLS][{\"name\":\"bash\",\"arguments\":{}}]", "[TOOL_CALLS]bash[ARGS]{}",
		"{\"name\":\"bash\",\"parameters\":{'a':1,}}", "<|python_tag|>{\"name\":\"bash\"}",
		"<tool_call>bash<arg_key>command</arg_key><arg_value>ls</arg_value></tool_call>",
		"<|tool_call>call:bash{command:<|\"|>ls<|\"|>,n:[1,{a:true}]}<tool_call|>",
		"<|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>{}<|tool_call_end|>",
		"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>bash<｜tool▁sep｜>{}<｜tool▁call▁end｜>",
		"<minimax:tool_call><invoke name=\"bash\"><parameter name=\"n\">3</parameter></invoke>",
		"[bash(command='ls', n=[1, (2, 3)], d={'k': None})]", "<|tool_call_start|>[bash()]<|tool_call_end|>",
		"[TOOL_REQUEST]{\"name\":\"bash\",\"arguments\":{}}[END_TOOL_REQUEST]", "```json\n{\"name\":\"bash\"}\n```",
		"a `<tool_call>` b\n<function=bash>\n<parameter=command>\nls\n</function>",
	} {
		f.Add(s)
	}
	tools := []ToolSpec{{Name: "bash", Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"},"n":{"type":"integer"}}}`)}}
	f.Fuzz(func(t *testing.T, s string) {
		before, calls, _, ok := parseTextCalls(s, len(s)%2 == 0, tools)
		if !ok {
			return
		}
		if !strings.HasPrefix(s, before) {
			t.Errorf("the text before the calls %q is not the start of %q", before, s)
		}
		for _, c := range calls {
			var obj map[string]json.RawMessage
			if c.name != "bash" || json.Unmarshal([]byte(c.args), &obj) != nil {
				t.Errorf("recovered %q with arguments %q from %q", c.name, c.args, s)
			}
		}
	})
}

// FuzzRepairJSON: a repaired text is valid JSON, and nothing panics.
func FuzzRepairJSON(f *testing.F) {
	for _, s := range []string{`{"a":1,}`, "{'a':'b'}", "{\"a\":\"x\ny\"}", `{"a":1`, `{"a":"cut`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if out, ok := RepairJSON(s); ok && !json.Valid([]byte(out)) {
			t.Errorf("RepairJSON(%q) = %q, not valid JSON", s, out)
		}
	})
}

// FuzzFormatsSplit: whatever the model writes, feeding it in two pieces
// cut anywhere gives the answer, reasoning and calls the whole gives, and
// nothing panics.
func FuzzFormatsSplit(f *testing.F) {
	for _, c := range formatCases {
		f.Add(c.text, len(c.text)/2)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		if cut < 0 || cut > len(s) {
			cut = len(s) / 2
		}
		m1, r1, _ := accumulate(s)
		m2, r2, _ := accumulate(s[:cut], s[cut:])
		if m1.Content != m2.Content || m1.Reasoning != m2.Reasoning || r1 != r2 || len(m1.ToolCalls) != len(m2.ToolCalls) {
			t.Errorf("%q cut at %d: %q/%q/%q %d calls, whole %q/%q/%q %d calls", s, cut, m2.Content, m2.Reasoning, r2, len(m2.ToolCalls), m1.Content, m1.Reasoning, r1, len(m1.ToolCalls))
		}
	})
}
