package provider

import (
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// partialCall is a tool call being reassembled from its fragments.
type partialCall struct {
	id   string
	name string
	args strings.Builder
	size int  // bytes of arguments received, kept or not
	over bool // size went past the accumulator's maxArgs: args is incomplete
}

// accumulator reassembles one streamed answer from its chunks. It tolerates
// the habits of real servers: fragments without an index (they continue
// the last call unless they bring a new id or a second name), an index
// reused with a new id (a new call), whole calls in one chunk, several
// calls in one delta, and usage in a chunk with no choices.
type accumulator struct {
	content   strings.Builder
	reasoning strings.Builder
	calls     []*partialCall
	byIndex   map[int]int    // server index -> position in calls
	byID      map[string]int // call id -> position in calls
	last      int            // position of the call the last fragment went to, -1 if none
	finish    string
	usage     *Usage
	got       bool   // anything of the answer arrived (text, reasoning or a call)
	chunks    int    // chunks received that were JSON chunk objects
	size      int    // bytes of text, reasoning and tool calls (ids, names, arguments) received
	dropped   int    // calls past MaxCalls, not kept
	dropName  string // the name of the first dropped call
	maxArgs   int    // cap on one call's kept arguments
	think     thinkSplit
	hold      callHold   // holds what may be a tool call written as text
	tools     []ToolSpec // the tools offered: only their calls are recovered
	recovered string     // the format of calls recovered from text
}

// newAccumulator returns an accumulator that keeps at most maxArgs bytes
// of one call's arguments (a call past it is flagged, see response).
func newAccumulator(maxArgs int) *accumulator {
	return &accumulator{byIndex: map[int]int{}, byID: map[string]int{}, last: -1, maxArgs: maxArgs}
}

// add folds one chunk in and returns the text increment it carried.
func (a *accumulator) add(resp *openai.ChatCompletionStreamResponse) (d Delta, toolFragment bool) {
	a.chunks++
	if u := resp.Usage; u != nil && (u.PromptTokens < 0 || u.CompletionTokens < 0 || u.TotalTokens < 0) {
		a.usage = nil // counts that cannot be: treated as absent (estimated), never summed
	} else if resp.Usage != nil {
		a.usage = &Usage{
			PromptTokens:     resp.Usage.PromptTokens,
			CompletionTokens: resp.Usage.CompletionTokens,
			TotalTokens:      resp.Usage.TotalTokens,
		}
		if d := resp.Usage.PromptTokensDetails; d != nil {
			a.usage.CachedTokens = max(0, d.CachedTokens)
		}
	}
	for _, ch := range resp.Choices {
		if ch.Index != 0 {
			continue // only one choice is ever asked for
		}
		raw := ch.Delta.Content + ch.Delta.Refusal
		a.size += len(raw) + len(ch.Delta.ReasoningContent)
		text, thought, moved := a.think.feed(raw)
		if moved { // a lone </think>: the answer so far was thoughts
			thought = a.content.String() + thought
			a.content.Reset()
			d.Rethought = true
		}
		thought = ch.Delta.ReasoningContent + thought
		if len(a.tools) > 0 {
			text = a.hold.feed(text)
		}
		d.Content += text
		d.Reasoning += thought
		a.content.WriteString(text)
		a.reasoning.WriteString(thought)
		if raw != "" {
			a.got = true // held back or not, something of the answer came
		}
		for _, tc := range ch.Delta.ToolCalls {
			a.fragment(tc)
			toolFragment = true
		}
		if ch.Delta.FunctionCall != nil { // legacy function_call streaming
			a.fragment(openai.ToolCall{Function: *ch.Delta.FunctionCall})
			toolFragment = true
		}
		if ch.FinishReason != "" {
			a.finish = string(ch.FinishReason)
		}
	}
	if d.Content != "" || d.Reasoning != "" || toolFragment {
		a.got = true
	}
	return d, toolFragment
}

// fragment folds one tool-call fragment in.
func (a *accumulator) fragment(tc openai.ToolCall) {
	n := len(tc.Function.Arguments)
	a.size += n + len(tc.ID) + len(tc.Function.Name) + len(tc.Type)
	pos := a.target(tc)
	if pos < 0 { // a call past MaxCalls
		if a.dropName == "" {
			a.dropName = tc.Function.Name
		}
		a.last = -1
		return
	}
	c := a.calls[pos]
	if c.id == "" && tc.ID != "" {
		c.id = tc.ID
		a.byID[tc.ID] = pos
	}
	if n := tc.Function.Name; n != "" && n != c.name && c.size == 0 {
		c.name += n // a name streamed in pieces; a repeated name is ignored
	}
	c.size += n
	if c.size > a.maxArgs && a.maxArgs > 0 {
		c.over = true
		c.args.Reset() // not kept: it is never sent anywhere
	}
	if !c.over {
		c.args.WriteString(tc.Function.Arguments)
	}
	a.last = pos
}

// target returns the position of the call a fragment belongs to, starting
// a new call when needed; -1 for a call past MaxCalls (dropped).
func (a *accumulator) target(tc openai.ToolCall) int {
	if tc.Index != nil {
		pos, ok := a.byIndex[*tc.Index]
		switch {
		case ok && pos < 0 && tc.ID != "":
			_, ok = a.byID[tc.ID] // a dropped index reused: a new call unless the id is the dropped one's
		case ok && pos >= 0 && tc.ID != "" && a.calls[pos].id != "" && a.calls[pos].id != tc.ID:
			ok = false // the same index reused for a new call
		}
		if !ok {
			pos = a.newCallWithID(tc.ID)
			if pos >= 0 || len(a.byIndex) < maxKnownDropped {
				a.byIndex[*tc.Index] = pos
			}
		}
		return pos
	}
	if tc.ID != "" {
		if pos, ok := a.byID[tc.ID]; ok {
			return pos
		}
		if a.last >= 0 && a.calls[a.last].id == "" && a.calls[a.last].size == 0 {
			return a.last // the id came after the name
		}
		return a.newCallWithID(tc.ID)
	}
	if a.last < 0 {
		return a.newCall()
	}
	if prev := a.calls[a.last]; tc.Function.Name != "" && prev.name != "" &&
		(tc.Function.Name != prev.name || prev.size > 0) {
		return a.newCall() // a second name without index or id: the next whole call
	}
	return a.last
}

// maxKnownDropped bounds the calls past MaxCalls whose index or id is
// remembered (so that their further fragments go with them): past it, a
// flood costs no memory, and each fragment counts as a dropped call.
const maxKnownDropped = 4096

// newCallWithID starts a call (see newCall); a dropped one's id is
// remembered, so that its further fragments are dropped with it.
func (a *accumulator) newCallWithID(id string) int {
	pos := a.newCall()
	if pos < 0 && id != "" && len(a.byID) < maxKnownDropped {
		a.byID[id] = pos
	}
	return pos
}

// newCall starts a call and returns its position, or -1 (counted in
// dropped) when the answer already has MaxCalls calls.
func (a *accumulator) newCall() int {
	if len(a.calls) >= MaxCalls {
		a.dropped++
		return -1
	}
	a.calls = append(a.calls, &partialCall{})
	return len(a.calls) - 1
}

// response builds the Response from what arrived so far. newID supplies
// ids for calls that came without one, and for a call whose id an earlier
// call of the message already has (some servers repeat ids; a strict
// server refuses the history after that). A call whose arguments went past
// the cap has "{}" for arguments and ArgsCut set, so that it is answered
// with an error that says why instead of being run.
func (a *accumulator) response(newID func() string) *Response {
	text, thought := a.think.pending()
	msg := Message{Role: RoleAssistant, Content: a.content.String() + a.hold.pending() + text, Reasoning: a.reasoning.String() + thought}
	seen := make(map[string]bool, len(a.calls))
	for _, c := range a.calls {
		id := c.id
		if id == "" || seen[id] {
			id = newID()
		}
		seen[id] = true
		tc := ToolCall{ID: id, Name: c.name, Arguments: c.args.String()}
		if c.over {
			tc.Arguments = "{}"
			tc.ArgsCut = &ArgsCut{Size: c.size, Limit: a.maxArgs}
		}
		msg.ToolCalls = append(msg.ToolCalls, tc)
	}
	if a.dropped > 0 {
		name := a.dropName
		if name == "" || len(name) > 64 {
			name = "tool_calls" // a name for the history, never run
		}
		cut := &ArgsCut{Limit: MaxCalls, Calls: a.dropped}
		msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: newID(), Name: name, Arguments: "{}", ArgsCut: cut})
	}
	finish := a.finish
	if len(msg.ToolCalls) > 0 && (finish == "" || finish == "stop") {
		finish = "tool_calls"
	}
	return &Response{Message: msg, FinishReason: finish, Usage: a.usage, Recovered: a.recovered}
}

// flush ends the text of the answer: what the think splitter held back
// (the start of a tag that never came) is taken as it stands, text held
// as a possible tool call written as text becomes calls when it is one
// (and no call came the proper way), else answer text (see
// recoverCalls); what is released is returned as a delta to show.
func (a *accumulator) flush() Delta {
	text, thought := a.think.pending()
	a.think.held = ""
	if a.think.unguessed != "" { // streamed as thoughts, it was the answer
		r := a.reasoning.String()
		a.reasoning.Reset()
		a.reasoning.WriteString(strings.TrimSuffix(r, a.think.unguessed))
	}
	if len(a.tools) > 0 {
		text = a.hold.feed(text)
	}
	text, thought = a.recoverCalls(text, thought)
	a.content.WriteString(text)
	a.reasoning.WriteString(thought)
	return Delta{Content: text, Reasoning: thought}
}
