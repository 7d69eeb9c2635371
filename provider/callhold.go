package provider

import "strings"

// callHold watches the answer text for the start of a tool call written
// as text and holds everything from there until the stream ends, so that
// the markup never shows as the answer when it turns out to be a call.
// A marker (callMarks) starts a call anywhere outside code fences and
// inline code; an answer that starts with "{", "[", "```" or Llama's
// <|python_tag|> may be a whole-message call and is held while it still
// can be one. Text that may be the start of a marker (or a run of
// backticks cut in two) is held until the next piece decides; all other
// text is returned at once.
type callHold struct {
	started bool            // answer text other than white space came
	holding bool            // a marker came: hold to the end
	whole   bool            // holding a possible whole-message call
	held    string          // the start of a marker, not yet decided
	all     strings.Builder // while holding: everything from the marker on
	code    codeSpan        // markdown code in the text shown so far
	fence   fenceEnd        // a whole message held from ``` on: where its block ends
}

// feed returns the part of s that can be shown now.
func (c *callHold) feed(s string) string {
	if c.holding {
		c.all.WriteString(s)
		if c.whole && (c.all.Len() <= wholeDecided && !mayBeWhole(c.all.String()) || c.fence.textAfter(s)) {
			return c.release()
		}
		return ""
	}
	s, c.held = c.held+s, ""
	if !c.started {
		rest := strings.TrimLeft(s, " \t\r\n")
		if rest == "" {
			return s
		}
		if wholeStart(rest) {
			c.started, c.holding, c.whole = true, true, true
			c.all.WriteString(s)
			c.fence.on = strings.HasPrefix(rest, "```")
			if c.fence.textAfter(s) {
				return c.release()
			}
			if !mayBeWhole(rest) {
				return c.release()
			}
			return ""
		}
		if isWholePrefix(rest) {
			c.held = s // perhaps "```" or Llama's tag: the next piece decides
			return ""
		}
		c.started = true
	}
	i, partial := c.scan(s)
	switch {
	case partial:
		c.held = s[i:]
	case i < len(s):
		c.holding = true
		c.all.WriteString(s[i:])
	}
	return s[:i]
}

// release gives up holding a whole-message call that cannot be one: the
// held text goes through the search for markers like any other text.
func (c *callHold) release() string {
	s := c.all.String()
	c.all.Reset()
	c.holding, c.whole, c.fence = false, false, fenceEnd{}
	return c.feed(s)
}

// scan follows s through markdown code up to the first call marker
// outside code and returns where it starts (len(s) when there is none),
// and partial true when s ends at i with what may be the start of a
// marker or of a run of backticks (the caller holds s[i:]).
func (c *callHold) scan(s string) (i int, partial bool) {
	for i < len(s) {
		b := s[i]
		if (b == '<' || b == '[') && !c.code.inCode() {
			switch markAt(s[i:]) {
			case markWhole:
				return i, false
			case markPart:
				return i, true
			}
		}
		if b != '\n' && b != '`' && b != '~' && b != ' ' && b != '\t' && b != '\r' {
			c.code.midLine = true
			i++
			continue
		}
		n := c.code.step(s, i)
		if n == 0 {
			return i, true
		}
		i += n
	}
	return i, false
}

// take returns and forgets everything held, and whether it was held as a
// possible whole-message call.
func (c *callHold) take() (string, bool) {
	s, whole := c.held+c.all.String(), c.whole
	c.held = ""
	c.all.Reset()
	return s, whole
}

// pending returns what is held, without taking it.
func (c *callHold) pending() string { return c.held + c.all.String() }

// What markAt finds at the start of a text.
const (
	markNone  = iota // no marker
	markWhole        // a whole marker
	markPart         // the text is a proper start of a marker
)

// markAt reports whether s starts with a call marker, or is the start of
// one.
func markAt(s string) int {
	for _, f := range callMarks {
		switch {
		case strings.HasPrefix(s, f.mark):
			return markWhole
		case len(s) < len(f.mark) && strings.HasPrefix(f.mark, s):
			return markPart
		}
	}
	return markNone
}

// firstCall finds the first marker outside code in text that starts a
// run of calls of offered tools, and returns the text before it and the
// calls, and the text after them (which the caller drops, as the
// servers' own parsers drop it: the model wrote it before the call ran).
func firstCall(text string, tools []ToolSpec) (before string, calls []textCall, format, after string, ok bool) {
	return findCalls(text, tools, false)
}

// findCalls is firstCall; with toEnd, only a run of calls with nothing
// but white space after it counts. At most maxRecoveredCall markers are
// tried, so that text full of markers costs a bounded number of passes.
func findCalls(text string, tools []ToolSpec, toEnd bool) (before string, calls []textCall, format, after string, ok bool) {
	var code codeSpan
	tries := 0
	for i := 0; i < len(text) && tries < maxRecoveredCall; {
		if b := text[i]; (b == '<' || b == '[') && !code.inCode() && markAt(text[i:]) == markWhole {
			tries++
			if calls, format, after, ok := parseMarked(text[i:], tools); ok && (!toEnd || strings.TrimSpace(after) == "") {
				return text[:i], calls, format, after, true
			}
		}
		n := code.step(text, i)
		if n == 0 {
			n = len(text) - i // a run of backticks to the end: no call after it
		}
		i += n
	}
	return text, nil, "", "", false
}

// fenceEnd follows a whole message held from its opening ``` on, to
// release it as soon as text comes after the block's closing fence: then
// it is not a message that is nothing but a fenced call.
type fenceEnd struct {
	on    bool // the held message starts with a fence
	lines int  // line ends seen
	ticks int  // backticks at the start of the current line (-1: other text came)
	shut  bool // the closing fence came
}

// textAfter reads the next piece and reports whether text other than
// white space came after the closing fence.
func (f *fenceEnd) textAfter(s string) bool {
	for i := 0; f.on && i < len(s); i++ {
		b := s[i]
		switch {
		case f.shut && strings.IndexByte(wsChars, b) < 0:
			return true
		case b == '\n':
			f.lines, f.ticks = f.lines+1, 0
		case b == '`' && f.ticks >= 0:
			f.ticks++
			f.shut = f.shut || f.lines > 0 && f.ticks == 3
		case strings.IndexByte(wsChars, b) < 0:
			f.ticks = -1
		}
	}
	return false
}
