package provider

// codeSpan follows markdown code through streamed text, so that a call
// written inside a code fence or inline code (an example in an
// explanation) stays text. It knows fenced blocks (a line that starts
// with ``` or ~~~, closed by the same kind of run at least as long) and
// inline code (a run of backticks closed by a run of the same length on
// the same line; a line end closes it, so that a stray backtick cannot
// hide a real call for the rest of the message).
type codeSpan struct {
	fence   byte // '`' or '~' while inside a fenced block, 0 outside
	fenceN  int  // the length of the run that opened the block
	tick    int  // the length of the backtick run that opened inline code, 0 outside
	midLine bool // something other than spaces came on this line
}

// inCode reports whether the next byte is inside code.
func (c *codeSpan) inCode() bool { return c.fence != 0 || c.tick > 0 }

// run reads the run of b that starts s[i] (s[i] == b) and returns its
// length; whole is false when the run reaches the end of s (the next
// piece may make it longer: the caller holds it).
func run(s string, i int, b byte) (n int, whole bool) {
	for i+n < len(s) && s[i+n] == b {
		n++
	}
	return n, i+n < len(s)
}

// step advances over the run or byte at s[i] and returns how many bytes
// it read; 0 when s[i] starts a run of backticks or tildes that reaches
// the end of s and must wait for the next piece.
func (c *codeSpan) step(s string, i int) int {
	b := s[i]
	switch {
	case b == '\n':
		c.midLine, c.tick = false, 0
		return 1
	case b == '`' || (b == '~' && !c.midLine):
		n, whole := run(s, i, b)
		if !whole {
			return 0
		}
		c.runOf(b, n)
		return n
	case b != ' ' && b != '\t' && b != '\r':
		c.midLine = true
	}
	return 1
}

// runOf applies a whole run of n backticks or tildes.
func (c *codeSpan) runOf(b byte, n int) {
	atStart := !c.midLine
	c.midLine = true
	switch {
	case c.fence != 0:
		if atStart && b == c.fence && n >= c.fenceN {
			c.fence, c.fenceN = 0, 0
		}
	case atStart && n >= 3 && c.tick == 0:
		c.fence, c.fenceN = b, n
	case b != '`':
	case c.tick == 0:
		c.tick = n
	case c.tick == n:
		c.tick = 0
	}
}
