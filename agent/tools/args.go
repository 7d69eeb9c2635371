package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// ArgError reports tool arguments the model got wrong: malformed JSON, a
// missing required field or a value of the wrong type. Its message names the
// tool, the problem and the shape the tool expects, so the model can retry.
type ArgError struct {
	Tool     string // the tool's name, e.g. "bash"
	Problem  string // what is wrong, e.g. `"command" is required`
	Expected string // an example of valid arguments
	Err      error  // the underlying decoding error, if any
}

// Error returns e.g. `invalid arguments for bash: "command" is required;
// expected {"command": "..."}`.
func (e *ArgError) Error() string {
	return fmt.Sprintf("invalid arguments for %s: %s; expected %s", e.Tool, e.Problem, e.Expected)
}

// Unwrap returns the underlying decoding error, if any.
func (e *ArgError) Unwrap() error { return e.Err }

// args is a tool call's decoded argument object. Its getters are lenient
// where models are sloppy: numbers may arrive as strings and booleans as
// "true"/"false"; unknown fields are ignored but named when a required one
// is missing (the model may have misspelt it).
type args struct {
	tool, expected string
	fields         map[string]json.RawMessage
}

// parseArgs decodes raw as a JSON object. Empty input and null count as {}.
func parseArgs(tool, expected string, raw json.RawMessage) (*args, error) {
	a := &args{tool: tool, expected: expected, fields: map[string]json.RawMessage{}}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return a, nil
	}
	if err := json.Unmarshal(trimmed, &a.fields); err != nil {
		return nil, a.errorf(err, "malformed JSON (%s)", jsonProblem(err, trimmed))
	}
	if a.fields == nil { // the literal null was handled above; be safe anyway
		a.fields = map[string]json.RawMessage{}
	}
	return a, nil
}

// jsonProblem describes a decoding error in a few words.
func jsonProblem(err error, raw []byte) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return "the arguments must be a JSON object, not " + jsonKind(raw)
	}
	return err.Error()
}

// jsonKind names the kind of a JSON value by its first byte.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

func (a *args) errorf(err error, format string, v ...any) error {
	return &ArgError{Tool: a.tool, Problem: fmt.Sprintf(format, v...), Expected: a.expected, Err: err}
}

// present reports whether name was sent with a non-null value.
func (a *args) present(name string) bool {
	v, ok := a.fields[name]
	return ok && string(bytes.TrimSpace(v)) != "null"
}

// missing is the error for a required field that was not sent.
func (a *args) missing(name string) error {
	if len(a.fields) == 0 {
		return a.errorf(nil, "%q is required", name)
	}
	keys := make([]string, 0, len(a.fields))
	for k := range a.fields {
		keys = append(keys, strconv.Quote(k))
	}
	sort.Strings(keys)
	return a.errorf(nil, "%q is required (got %s)", name, strings.Join(keys, ", "))
}

// str returns a string field; a required field must be present (it may be
// the empty string).
func (a *args) str(name string, required bool) (string, error) {
	if !a.present(name) {
		if required {
			return "", a.missing(name)
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(a.fields[name], &s); err != nil {
		return "", a.errorf(err, "%q must be a string, not %s", name, jsonKind(a.fields[name]))
	}
	return s, nil
}

// number returns an optional numeric field (0 when absent). A string holding
// a number is accepted.
func (a *args) number(name string) (float64, error) {
	if !a.present(name) {
		return 0, nil
	}
	raw := a.fields[name]
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		return f, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		s = strings.TrimSpace(s)
		if s == "" {
			return 0, nil
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f, nil
		}
	}
	return 0, a.errorf(nil, "%q must be a number, not %s", name, jsonKind(raw))
}

// integer returns an optional whole-number field (0 when absent).
func (a *args) integer(name string) (int, error) {
	f, err := a.number(name)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || math.Abs(f) > 1e9 {
		return 0, a.errorf(nil, "%q must be a whole number, not %v", name, f)
	}
	return int(f), nil
}

// boolean returns an optional boolean field (false when absent). The
// strings "true" and "false" are accepted.
func (a *args) boolean(name string) (bool, error) {
	if !a.present(name) {
		return false, nil
	}
	raw := a.fields[name]
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return b, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
			return b, nil
		}
	}
	return false, a.errorf(nil, "%q must be true or false, not %s", name, jsonKind(raw))
}

// path returns the required "path" field, trimmed of surrounding spaces.
func (a *args) path() (string, error) {
	p, err := a.str("path", true)
	if err != nil {
		return "", err
	}
	p = strings.TrimSpace(p)
	if p == "" {
		return "", a.errorf(nil, `"path" is empty`)
	}
	return p, nil
}
