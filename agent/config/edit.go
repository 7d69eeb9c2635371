package config

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// errCannotEdit says the file's text holds a form of the keys Save writes
// that the in-place editor does not change (an inline or dotted
// providers table, a [providers] super-table, an array of tables, a value
// that is not a string), so Save rewrites the whole file instead.
var errCannotEdit = errors.New("the file's form is beyond the in-place editor")

// editText returns src with ch written into it the way Save means it,
// every byte it does not change kept: the top-level provider and model,
// the [providers.NAME] table's base_url and api_key (and no api_key_env
// once a key is written). Each change is one scan of the text and one
// splice, so every step sees the text the previous one left.
func editText(src []byte, ch Choice) ([]byte, error) {
	var steps []func([]byte) ([]byte, error)
	if ch.Provider != "" {
		steps = append(steps, setTop("provider", ch.Provider))
	}
	if ch.Model != "" {
		steps = append(steps, setTop("model", ch.Model))
	}
	if ch.Provider != "" {
		steps = append(steps, ensureTable(ch.Provider))
		if ch.BaseURL != "" {
			steps = append(steps, setInTable(ch.Provider, "base_url", ch.BaseURL))
		}
		if ch.APIKey != "" {
			steps = append(steps, setInTable(ch.Provider, "api_key", ch.APIKey), dropFromTable(ch.Provider, "api_key_env"))
		}
	}
	out := src
	for _, step := range steps {
		var err error
		if out, err = step(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// entry is where one key/value sits in the text.
type entry struct {
	line, next int  // its first line's start; the offset after its last line's end
	val        span // its value, when it is a string
	isString   bool
}

// span is a byte range of the text.
type span struct{ start, end int }

// table is a [providers.NAME] table of the text.
type table struct {
	keys map[string]entry
	last int // the offset after its last key/value (or its header) line
}

// layout is what the editor knows of a file's text.
type layout struct {
	top         map[string]entry  // top-level provider and model
	lastTop     int               // the offset after the last top-level key/value line; -1 without one
	firstHeader int               // the first table header's line start; -1 without one
	tables      map[string]*table // [providers.NAME] by NAME
	// oddProviders: the providers tables take a form the editor does
	// not change (inline, dotted, a [providers] super-table, arrays of
	// tables, sub-tables, dotted keys of a provider's keys).
	oddProviders bool
}

// topKeys and tableKeys are the keys the editor changes.
var (
	topKeys   = map[string]bool{"provider": true, "model": true}
	tableKeys = map[string]bool{"base_url": true, "api_key": true, "api_key_env": true}
)

// scan reads src's layout, or errCannotEdit when its top-level provider or
// model is a dotted key or a table (the providers tables' odd forms are flagged, so
// that a file with one still gets its model edited in place).
func scan(src []byte) (layout, error) {
	l := layout{top: map[string]entry{}, lastTop: -1, firstHeader: -1, tables: map[string]*table{}}
	var p unstable.Parser
	p.Reset(src)
	top := true
	var cur *table
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind != unstable.KeyValue && e.Kind != unstable.Table && e.Kind != unstable.ArrayTable {
			continue
		}
		parts, at := keyParts(e)
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			line := lineStart(src, at)
			if top {
				top, l.firstHeader = false, line
			}
			cur = nil
			if topKeys[parts[0]] {
				return l, errCannotEdit // a table where a string goes
			}
			if parts[0] != "providers" {
				continue
			}
			if e.Kind == unstable.ArrayTable || len(parts) != 2 || l.tables[parts[1]] != nil {
				l.oddProviders = true
				continue
			}
			cur = &table{keys: map[string]entry{}, last: lineNext(src, at)}
			l.tables[parts[1]] = cur
		case unstable.KeyValue:
			en := keyValue(src, e)
			switch {
			case top && parts[0] == "providers":
				l.oddProviders = true
			case top && topKeys[parts[0]]:
				if len(parts) != 1 {
					return l, errCannotEdit
				}
				l.top[parts[0]] = en
			case cur != nil && tableKeys[parts[0]]:
				if len(parts) != 1 {
					l.oddProviders = true
				}
				cur.keys[parts[0]] = en
			}
			if top {
				l.lastTop = en.next
			} else if cur != nil {
				cur.last = en.next
			}
		}
	}
	if p.Error() != nil {
		return l, errCannotEdit
	}
	return l, nil
}

// providersLayout is scan for the steps that edit a providers table:
// errCannotEdit when the tables take an odd form.
func providersLayout(src []byte) (layout, error) {
	l, err := scan(src)
	if err == nil && l.oddProviders {
		err = errCannotEdit
	}
	return l, err
}

// keyParts returns the decoded parts of e's key and the offset of its
// first part in the text.
func keyParts(e *unstable.Node) ([]string, int) {
	var parts []string
	at := -1
	for it := e.Key(); it.Next(); {
		n := it.Node()
		if at < 0 {
			at = int(n.Raw.Offset)
		}
		parts = append(parts, string(n.Data))
	}
	return parts, at
}

// keyValue returns where the key/value e sits in src.
func keyValue(src []byte, e *unstable.Node) entry {
	start, end := int(e.Raw.Offset), int(e.Raw.Offset+e.Raw.Length)
	en := entry{line: lineStart(src, start), next: lineNext(src, end)}
	if v := e.Value(); v.Kind == unstable.String {
		en.isString = true
		en.val = span{int(v.Raw.Offset), int(v.Raw.Offset + v.Raw.Length)}
	}
	return en
}

// lineStart returns the start of the line holding offset at.
func lineStart(src []byte, at int) int {
	return bytes.LastIndexByte(src[:at], '\n') + 1
}

// lineNext returns the offset after the end of the line holding offset
// at (after its newline; len(src) on the last line without one).
func lineNext(src []byte, at int) int {
	i := bytes.IndexByte(src[at:], '\n')
	if i < 0 {
		return len(src)
	}
	return at + i + 1
}

// setTop sets the top-level key to value: its value replaced in place, or
// a new line after the last top-level key/value, else before the first
// table (and the comments right above it), else at the end.
func setTop(key, value string) func([]byte) ([]byte, error) {
	return func(src []byte) ([]byte, error) {
		l, err := scan(src)
		if err != nil {
			return nil, err
		}
		if en, ok := l.top[key]; ok {
			return replaceValue(src, en, value)
		}
		line := key + " = " + quote(value)
		switch {
		case l.lastTop >= 0:
			return insertLines(src, l.lastTop, line), nil
		case l.firstHeader >= 0:
			at := commentsAbove(src, l.firstHeader)
			return splice(src, span{at, at}, line+eol(src)+eol(src)), nil
		default:
			return insertLines(src, len(src), separate(src)+line), nil
		}
	}
}

// ensureTable appends an empty [providers.NAME] table when the text has
// none.
func ensureTable(name string) func([]byte) ([]byte, error) {
	return func(src []byte) ([]byte, error) {
		l, err := providersLayout(src)
		if err != nil || l.tables[name] != nil {
			return src, err
		}
		return insertLines(src, len(src), separate(src)+"[providers."+tomlKey(name)+"]"), nil
	}
}

// setInTable sets key to value in the [providers.NAME] table: its value
// replaced in place, or a new line after the table's last key/value.
func setInTable(name, key, value string) func([]byte) ([]byte, error) {
	return func(src []byte) ([]byte, error) {
		l, err := providersLayout(src)
		if err != nil {
			return nil, err
		}
		t := l.tables[name]
		if t == nil {
			return nil, errCannotEdit
		}
		if en, ok := t.keys[key]; ok {
			return replaceValue(src, en, value)
		}
		return insertLines(src, t.last, key+" = "+quote(value)), nil
	}
}

// dropFromTable removes key's lines (with their comment) from the
// [providers.NAME] table.
func dropFromTable(name, key string) func([]byte) ([]byte, error) {
	return func(src []byte) ([]byte, error) {
		l, err := providersLayout(src)
		if err != nil {
			return nil, err
		}
		t := l.tables[name]
		if t == nil {
			return src, nil
		}
		en, ok := t.keys[key]
		if !ok {
			return src, nil
		}
		return splice(src, span{en.line, en.next}, ""), nil
	}
}

// replaceValue replaces en's string value, keeping the rest of its line.
func replaceValue(src []byte, en entry, value string) ([]byte, error) {
	if !en.isString {
		return nil, errCannotEdit
	}
	return splice(src, en.val, quote(value)), nil
}

// insertLines inserts text as whole lines at offset at, a line start or
// the end of the text (which gets a newline first when it lacks one).
func insertLines(src []byte, at int, text string) []byte {
	nl := eol(src)
	text = strings.ReplaceAll(text, "\n", nl) + nl
	if at == len(src) && at > 0 && src[at-1] != '\n' {
		text = nl + text
	}
	return splice(src, span{at, at}, text)
}

// separate is the blank line that sets off what is appended to src when
// its last line is not blank.
func separate(src []byte) string {
	if len(bytes.TrimSpace(src)) == 0 {
		return ""
	}
	body := bytes.TrimSuffix(bytes.TrimSuffix(src, []byte("\n")), []byte("\r"))
	if len(bytes.TrimSpace(body[lineStart(body, len(body)):])) == 0 {
		return ""
	}
	return "\n"
}

// commentsAbove returns the start of the comment lines right above the
// line starting at at (at itself without any).
func commentsAbove(src []byte, at int) int {
	for at > 0 {
		prev := lineStart(src, at-1)
		if !bytes.HasPrefix(bytes.TrimLeft(src[prev:at], " \t"), []byte("#")) {
			break
		}
		at = prev
	}
	return at
}

// splice returns src with the bytes of s replaced by text.
func splice(src []byte, s span, text string) []byte {
	out := make([]byte, 0, len(src)-(s.end-s.start)+len(text))
	out = append(out, src[:s.start]...)
	out = append(out, text...)
	return append(out, src[s.end:]...)
}

// eol is src's line ending: CRLF when its first line ends so, else LF.
func eol(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// quote returns s as a TOML basic string: quotes, backslashes and control
// characters escaped, so that no value can end the string early or start
// another line. s must be valid UTF-8.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				const hex = "0123456789ABCDEF"
				b.WriteString(`\u00`)
				b.WriteByte(hex[r>>4])
				b.WriteByte(hex[r&0xf])
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlKey returns name as a TOML key: bare when it can be, else quoted.
func tomlKey(name string) string {
	if name == "" {
		return quote(name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return quote(name)
		}
	}
	return name
}

// validUTF8 reports whether every text of ch is valid UTF-8 (a TOML file
// holds nothing else).
func validUTF8(ch Choice) bool {
	return utf8.ValidString(ch.Provider) && utf8.ValidString(ch.BaseURL) && utf8.ValidString(ch.APIKey) && utf8.ValidString(ch.Model)
}
