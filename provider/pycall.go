package provider

import (
	"encoding/json"
	"strconv"
	"strings"
)

// maxLiteralDepth caps the nesting of lists and objects in arguments
// written as Python or Gemma literals.
const maxLiteralDepth = 64

// litReader reads Python literals (pythonic calls) or Gemma 4's argument
// syntax from s, from position i on, into values json.Marshal writes.
type litReader struct {
	s     string
	i     int
	gemma bool // Gemma 4: strings in <|"|>, bare keys, bare words are text
	bad   bool
}

func (p *litReader) space() {
	for p.i < len(p.s) && strings.IndexByte(wsChars, p.s[p.i]) >= 0 {
		p.i++
	}
}

// eat consumes b when it comes next (after white space).
func (p *litReader) eat(b byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == b {
		p.i++
		return true
	}
	return false
}

// ident reads a name: letters, digits, "_", "." and, for Gemma, "-".
func (p *litReader) ident() string {
	p.space()
	j := p.i
	for p.i < len(p.s) {
		b := p.s[p.i]
		if b == '_' || b == '.' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || (p.i > j && b >= '0' && b <= '9') || (p.gemma && b == '-') {
			p.i++
			continue
		}
		break
	}
	return p.s[j:p.i]
}

// parsePythonic reads [NAME(KEY=VALUE, …), …] at the start of t (Llama
// 3.2 and 4, LFM2): keyword arguments only, values Python literals. It
// returns the calls and the text after the list.
func parsePythonic(t string, tools []ToolSpec) ([]textCall, string, bool) {
	p := &litReader{s: t}
	if !p.eat('[') {
		return nil, t, false
	}
	var calls []textCall
	for !p.eat(']') {
		if len(calls) > 0 && !p.eat(',') || len(calls) >= maxRecoveredCall {
			return nil, t, false
		}
		name := p.ident()
		if !known(name, tools) || !p.eat('(') {
			return nil, t, false
		}
		args := map[string]any{}
		for !p.eat(')') {
			if len(args) > 0 && !p.eat(',') {
				return nil, t, false
			}
			if p.eat(')') { // a trailing comma
				break
			}
			key := p.ident()
			if key == "" || !p.eat('=') {
				return nil, t, false
			}
			args[key] = p.value(0)
			if p.bad {
				return nil, t, false
			}
		}
		b, err := json.Marshal(args)
		if err != nil {
			return nil, t, false
		}
		calls = append(calls, textCall{name: name, args: string(b)})
	}
	return calls, t[p.i:], len(calls) > 0
}

// gemmaArgs turns Gemma 4's argument text (what is inside the braces:
// key:<|"|>text<|"|>,n:42,flag:true,nested:{…},list:[…]) into a JSON
// object.
func gemmaArgs(s string) (string, bool) {
	p := &litReader{s: s + "}", gemma: true}
	v := p.object(0)
	p.space()
	if p.bad || p.i != len(p.s) {
		return "", false
	}
	b, err := json.Marshal(v)
	return string(b), err == nil
}

// value reads one literal.
func (p *litReader) value(depth int) any {
	p.space()
	if p.i >= len(p.s) || depth > maxLiteralDepth {
		p.bad = true
		return nil
	}
	switch b := p.s[p.i]; {
	case p.gemma && strings.HasPrefix(p.s[p.i:], gemmaQuote):
		p.i += len(gemmaQuote)
		end := strings.Index(p.s[p.i:], gemmaQuote)
		if end < 0 {
			p.bad = true
			return nil
		}
		v := p.s[p.i : p.i+end]
		p.i += end + len(gemmaQuote)
		return v
	case b == '"' || b == '\'':
		return p.str(b)
	case b == '[' || b == '(':
		p.i++
		return p.list(depth, map[byte]byte{'[': ']', '(': ')'}[b])
	case b == '{':
		p.i++
		return p.object(depth)
	}
	return p.bare()
}

// list reads the items of a list up to its closing bracket.
func (p *litReader) list(depth int, end byte) any {
	items := []any{}
	for !p.eat(end) {
		if len(items) > 0 && !p.eat(',') {
			p.bad = true
			return nil
		}
		if p.eat(end) {
			break
		}
		items = append(items, p.value(depth+1))
		if p.bad {
			return nil
		}
	}
	return items
}

// object reads the entries of an object up to "}": "key": value in
// Python, key:value in Gemma.
func (p *litReader) object(depth int) any {
	obj := map[string]any{}
	for !p.eat('}') {
		if len(obj) > 0 && !p.eat(',') {
			p.bad = true
			return nil
		}
		if p.eat('}') {
			break
		}
		var key string
		if p.gemma {
			key = p.ident()
		} else if k, ok := p.value(depth + 1).(string); ok {
			key = k
		}
		if key == "" || !p.eat(':') {
			p.bad = true
			return nil
		}
		obj[key] = p.value(depth + 1)
		if p.bad {
			return nil
		}
	}
	return obj
}

// str reads a Python string in quote q, with its escapes.
func (p *litReader) str(q byte) any {
	var b strings.Builder
	for p.i++; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String()
		case c == '\\' && p.i+1 < len(p.s):
			p.i++
			b.WriteByte(map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', '0': 0}[p.s[p.i]] | escapedSelf(p.s[p.i]))
		default:
			b.WriteByte(c)
		}
	}
	p.bad = true
	return nil
}

// escapedSelf returns c for an escape that stands for itself (\\ \' \")
// and 0 for one that stands for a control character.
func escapedSelf(c byte) byte {
	if strings.IndexByte("ntr0", c) >= 0 {
		return 0
	}
	return c
}

// bare reads a number, True/False/None (Python) or true/false/null, or,
// in Gemma, any other word as text.
func (p *litReader) bare() any {
	j := p.i
	for p.i < len(p.s) && strings.IndexByte(",)]}:"+wsChars, p.s[p.i]) < 0 {
		p.i++
	}
	w := p.s[j:p.i]
	switch w {
	case "True", "true":
		return true
	case "False", "false":
		return false
	case "None", "null":
		return nil
	}
	if _, err := strconv.ParseFloat(w, 64); err == nil && json.Valid([]byte(w)) {
		return json.Number(w)
	}
	if p.gemma && w != "" {
		return w
	}
	p.bad = true
	return nil
}
