package provider

import (
	"cmp"
	"strings"
)

// inThoughts is added to the format of calls recovered from the model's
// reasoning.
const inThoughts = ", inside its thoughts"

// recoverCalls ends the search for calls written as text, at the end of
// the stream, given the text and reasoning released at the end; it
// returns the text and reasoning to add. Calls are recovered only when
// no call came the proper way, only of offered tools, in this order:
// calls a Harmony answer made; the text held from a marker on (or a
// whole message), whose text before the calls stays the answer; and,
// when the answer is empty, a run of calls the reasoning ends with (a
// model that wrote its call inside unclosed thoughts).
func (a *accumulator) recoverCalls(text, thought string) (string, string) {
	held, whole := a.hold.take()
	if a.think.harmony != nil {
		calls, notRun := a.think.harmony.recovered(a.tools)
		thought += notRun
		if len(a.calls) == 0 && len(calls) > 0 {
			a.addRecovered(calls, FormatHarmony)
		}
	}
	if held != "" {
		before, calls, format, ok := parseTextCalls(held, whole, a.tools)
		if !ok || len(a.calls) > 0 {
			return text + held, thought
		}
		a.addRecovered(calls, format)
		text += before
	}
	if len(a.calls) == 0 && len(a.tools) > 0 && strings.TrimSpace(a.content.String()+text) == "" {
		reasoning := a.reasoning.String() + thought
		if calls, format, ok := callsAtEnd(reasoning, a.tools); ok {
			a.addRecovered(calls, format+inThoughts)
		}
	}
	return text, thought
}

// addRecovered adds calls read from text to the answer, at most MaxCalls
// of them in all; the rest are counted as dropped, like real calls past
// the cap.
func (a *accumulator) addRecovered(calls []textCall, format string) {
	for _, c := range calls {
		if len(a.calls) >= MaxCalls {
			a.dropped++
			a.dropName = cmp.Or(a.dropName, c.name)
			continue
		}
		pc := &partialCall{name: c.name, size: len(c.args)}
		pc.args.WriteString(c.args)
		a.calls = append(a.calls, pc)
	}
	a.recovered = format
}

// callsAtEnd finds, in reasoning, the first marker outside code from which
// a run of calls of offered tools reaches the end of the text (nothing
// but white space after it).
func callsAtEnd(reasoning string, tools []ToolSpec) ([]textCall, string, bool) {
	_, calls, format, _, ok := findCalls(reasoning, tools, true)
	return calls, format, ok
}
