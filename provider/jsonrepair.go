package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// RepairJSON mends the small slips models make in a JSON object of tool
// arguments and returns the mended text and true; it returns "" and
// false when s is valid already or cannot be mended safely. It fixes:
// trailing commas before } or ], raw newlines, tabs and other control
// characters inside strings, strings and keys in single quotes, and one
// missing closing } at the very end. It never closes a string that was
// cut off, nor a value cut after ":" or ",": such arguments are
// incomplete, and running a tool with them (a file written half) would
// be worse than the parse error the model gets instead.
//
// Well-known JSON-repair libraries were not used because they also
// complete truncated JSON, which is exactly what must not be run.
func RepairJSON(s string) (string, bool) {
	if json.Valid([]byte(s)) {
		return "", false
	}
	r := repairer{out: make([]byte, 0, len(s)+8)}
	for i := 0; i < len(s); i++ {
		if !r.step(s, &i) {
			return "", false
		}
	}
	out, ok := r.finish()
	if !ok || !json.Valid(out) {
		return "", false
	}
	return string(out), true
}

// repairer is the state of one RepairJSON pass.
type repairer struct {
	out   []byte
	stack []byte // open { and [
	quote byte   // the quote of the string being read; 0 outside strings
}

// step copies s[*i] (and an escaped character after it) into out, mended.
// It reports false when the input cannot be mended.
func (r *repairer) step(s string, i *int) bool {
	c := s[*i]
	if r.quote != 0 {
		r.inString(s, i, c)
		return true
	}
	switch c {
	case '"', '\'':
		r.quote = c
		r.out = append(r.out, '"')
	case '{', '[':
		r.stack = append(r.stack, c)
		r.out = append(r.out, c)
	case '}', ']':
		open := byte('{')
		if c == ']' {
			open = '['
		}
		if len(r.stack) == 0 || r.stack[len(r.stack)-1] != open {
			return false
		}
		r.stack = r.stack[:len(r.stack)-1]
		r.dropComma()
		r.out = append(r.out, c)
	default:
		r.out = append(r.out, c)
	}
	return true
}

// inString copies one character of a string, escaping what JSON needs
// escaped and ending the string at its quote.
func (r *repairer) inString(s string, i *int, c byte) {
	switch {
	case c == r.quote:
		r.quote = 0
		r.out = append(r.out, '"')
	case c == '\\' && *i+1 < len(s):
		*i++
		if s[*i] == '\'' { // \' is no JSON escape
			r.out = append(r.out, '\'')
		} else {
			r.out = append(r.out, '\\', s[*i])
		}
	case c == '"': // inside a single-quoted string
		r.out = append(r.out, '\\', '"')
	case c == '\n':
		r.out = append(r.out, '\\', 'n')
	case c == '\r':
		r.out = append(r.out, '\\', 'r')
	case c == '\t':
		r.out = append(r.out, '\\', 't')
	case c < 0x20:
		r.out = fmt.Appendf(r.out, "\\u%04x", c)
	default:
		r.out = append(r.out, c)
	}
}

// dropComma removes a comma (and the white space after it) at the end of
// out: a trailing comma before a closing bracket.
func (r *repairer) dropComma() {
	t := bytes.TrimRight(r.out, " \t\r\n")
	if bytes.HasSuffix(t, []byte(",")) {
		r.out = r.out[:len(t)-1]
	}
}

// finish closes what may be closed at the end: one missing }.
func (r *repairer) finish() ([]byte, bool) {
	if r.quote != 0 {
		return nil, false // a string cut off
	}
	t := bytes.TrimRight(r.out, " \t\r\n")
	if bytes.HasSuffix(t, []byte(":")) || bytes.HasSuffix(t, []byte(",")) {
		return nil, false // a value cut off
	}
	switch {
	case len(r.stack) == 0:
		return r.out, true
	case len(r.stack) == 1 && r.stack[0] == '{':
		return append(t, '}'), true
	}
	return nil, false
}
