package provider

import "strings"

// The tokens of gpt-oss's Harmony format (openai/harmony docs/format.md),
// as a server that does not parse it leaves them in the text.
const (
	hmStart     = "<|start|>"
	hmChannel   = "<|channel|>"
	hmMessage   = "<|message|>"
	hmEnd       = "<|end|>"
	hmCall      = "<|call|>"
	hmReturn    = "<|return|>"
	hmFunctions = "functions."
	maxHmHeader = 1 << 10 // a header longer than this is not one
)

// Where the body of a Harmony message goes.
const (
	hmToThought = iota // the analysis channel, or a call of a tool not offered
	hmToAnswer         // the final channel, or a preamble in commentary
	hmToCall           // a call of functions.NAME
)

// What a harmonySplit reads next.
const (
	hmBetween = iota // between messages: <|start|> or <|channel|> comes
	hmHeader         // a header, up to <|message|>
	hmBody           // a message's text, up to <|end|>, <|call|> or <|return|>
	hmPlain          // text outside the format: the answer
)

// harmonySplit reads an answer written in Harmony: the analysis channel is
// reasoning (the format's document says not to show it to users), the
// final channel and preambles in commentary are the answer, and a message
// to functions.NAME is a call. Tokens cut across pieces are held.
type harmonySplit struct {
	state  int
	route  int
	header strings.Builder
	held   string
	calls  []textCall // calls to functions.NAME, arguments as written
}

// harmonyOpens reports whether an answer that starts with rest is
// written in Harmony, and, with maybe, whether rest is a proper start of
// the tokens that say so.
func harmonyOpens(rest string) (yes, maybe bool) {
	for _, tok := range []string{hmChannel, hmStart} {
		if strings.HasPrefix(rest, tok) {
			return true, false
		}
		if len(rest) < len(tok) && strings.HasPrefix(tok, rest) {
			maybe = true
		}
	}
	return false, maybe
}

// feed splits s into answer and reasoning.
func (h *harmonySplit) feed(s string) (answer, thought string) {
	s, h.held = h.held+s, ""
	for s != "" {
		switch h.state {
		case hmPlain:
			return answer + s, thought
		case hmBetween:
			s = strings.TrimLeft(s, wsChars)
			switch {
			case strings.HasPrefix(s, hmStart):
				s, h.state = s[len(hmStart):], hmHeader
			case strings.HasPrefix(s, hmChannel):
				h.state = hmHeader
			case s == "" || strings.HasPrefix(hmStart, s) || strings.HasPrefix(hmChannel, s):
				h.held = s
				return answer, thought
			default:
				h.state = hmPlain
			}
		case hmHeader:
			s = h.readHeader(s)
		default:
			var text string
			text, s = h.readBody(s)
			if h.route == hmToAnswer {
				answer += text
			} else if h.route == hmToThought {
				thought += text
			}
		}
	}
	return answer, thought
}

// readHeader reads the header up to <|message|> and decides where the
// body goes; it returns what follows.
func (h *harmonySplit) readHeader(s string) string {
	i := strings.Index(s, hmMessage)
	end := i
	if i < 0 {
		end = len(s) - partialTag(s, hmMessage)
	}
	h.header.WriteString(s[:end])
	if h.header.Len() > maxHmHeader { // not a header: all of it is text
		rest := h.header.String() + s[end:]
		h.header.Reset()
		h.state = hmPlain
		return rest
	}
	if i < 0 {
		h.held = s[end:]
		return ""
	}
	h.route = hmToThought
	channel, recipient := harmonyHeader(h.header.String())
	h.header.Reset()
	switch {
	case strings.HasPrefix(recipient, hmFunctions):
		h.route = hmToCall
		h.calls = append(h.calls, textCall{name: strings.TrimPrefix(recipient, hmFunctions)})
	case recipient != "":
	case channel == "final" || channel == "commentary":
		h.route = hmToAnswer
	}
	h.state = hmBody
	return s[i+len(hmMessage):]
}

// readBody reads a message's text up to its end token and returns the
// text and what follows the token.
func (h *harmonySplit) readBody(s string) (text, rest string) {
	end, tok := len(s), ""
	for _, t := range []string{hmEnd, hmCall, hmReturn} {
		if i := strings.Index(s, t); i >= 0 && i < end {
			end, tok = i, t
		}
	}
	if tok == "" {
		k := 0
		for _, t := range []string{hmEnd, hmCall, hmReturn, hmStart} {
			k = max(k, partialTag(s, t))
		}
		end = len(s) - k
		h.held = s[end:]
	}
	text = s[:end]
	if h.route == hmToCall && len(h.calls) > 0 {
		h.calls[len(h.calls)-1].args += text
	}
	if tok == "" {
		return text, ""
	}
	h.state = hmBetween
	return text, s[end+len(tok):]
}

// harmonyHeader reads the channel and the recipient (to=…) of a header,
// "assistant<|channel|>commentary to=functions.NAME <|constrain|>json"
// or with the recipient in the role part.
func harmonyHeader(h string) (channel, recipient string) {
	fields := strings.Fields(strings.NewReplacer("<|", " <|", "|>", "|> ").Replace(h))
	for i, f := range fields {
		switch {
		case f == hmChannel && i+1 < len(fields):
			channel = fields[i+1]
		case strings.HasPrefix(f, "to="):
			recipient = strings.TrimPrefix(f, "to=")
		}
	}
	return channel, recipient
}

// pending returns the text held at the end of the stream, and where it
// goes.
func (h *harmonySplit) pending() (answer, thought string) {
	s := h.held
	h.held = ""
	switch {
	case h.state == hmPlain:
		return s, ""
	case h.state != hmBody:
		return "", ""
	case h.route == hmToAnswer:
		return s, ""
	case h.route == hmToCall:
		if len(h.calls) > 0 { // none once recovered took them
			h.calls[len(h.calls)-1].args += s
		}
		return "", ""
	}
	return "", s
}

// recovered returns the calls of offered tools the answer made, and the
// body of every call that cannot run, for the reasoning. A name glued to
// "json" (commentary to=functions.bashjson) is read without it.
func (h *harmonySplit) recovered(tools []ToolSpec) (calls []textCall, notRun string) {
	for _, c := range h.calls {
		if !known(c.name, tools) && known(strings.TrimSuffix(c.name, "json"), tools) {
			c.name = strings.TrimSuffix(c.name, "json")
		}
		obj, ok := argsObject([]byte(c.args))
		if !ok || !known(c.name, tools) || len(calls) >= maxRecoveredCall {
			notRun += "\nto=" + c.name + ": " + c.args
			continue
		}
		calls = append(calls, textCall{name: c.name, args: obj})
	}
	h.calls = nil
	return calls, notRun
}
