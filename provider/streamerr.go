package provider

import (
	"github.com/tick-agent/tick/agent/humanize"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	openai "github.com/sashabaranov/go-openai"
)

// errLostEvent stands for an error event that go-openai consumed without
// being able to parse it (it parses the event together with any
// keep-alive comments that came before); trackBody keeps the event itself.
var errLostEvent = errors.New("the server sent an error event that could not be read")

// eventError reads an error object sent instead of a chunk or answer
// ({"error":{"message":...,"type":...,"code":...}} or {"error":"..."}) as
// an *APIError with the given Status; ok is false when payload is not one.
// The message is made fit to print with key masked, as apiError's.
func eventError(payload []byte, base, key, status string) (_ *APIError, ok bool) {
	var shape struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(payload, &shape) != nil || len(shape.Error) == 0 || string(shape.Error) == "null" {
		return nil, false
	}
	e := &APIError{URL: base, Status: status}
	var oe openai.APIError
	if json.Unmarshal(shape.Error, &oe) == nil {
		e.Message, e.Type, e.Code = oe.Message, oe.Type, codeString(oe.Code)
	}
	if e.Message == "" {
		e.Message = bodyMessage(payload)
	}
	e.Message = serverText(e.Message, key)
	e.Hint = hintFor(e.status(), e.Message)
	return e, true
}

// streamFailed ends a stream on an error event. Before anything of the
// answer arrived it is the *APIError alone (retried when Temporary); after
// part of the answer it also wraps ErrStreamCut and comes with the partial
// Response, like a cut stream; after the finish reason the answer is
// complete and the event is ignored.
func (c *Client) streamFailed(acc *accumulator, ae *APIError) (*Response, bool, error) {
	switch {
	case acc.finish != "":
		return c.partial(acc), acc.got, nil
	case acc.got:
		return c.partial(acc), true, fmt.Errorf("%w: %w", ErrStreamCut, ae)
	}
	return c.partial(acc), false, ae
}

// isErrorLine reports whether the start of an event-stream line is a data
// line holding an error object.
func isErrorLine(line []byte) bool {
	rest, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:"))
	if !ok {
		return false
	}
	rest, ok = bytes.CutPrefix(bytes.TrimSpace(rest), []byte("{"))
	return ok && bytes.HasPrefix(bytes.TrimSpace(rest), []byte(`"error"`))
}

// trackBody is a response body that remembers whether a "data: [DONE]"
// line went through it, and the first error event. It also bounds what
// go-openai's line reader buffers: a line longer than maxLine (the
// client's cap, not the maxLine constant), or more than maxNonData bytes
// of lines that are not data lines in all, fail the read with a
// *lineError. (An sseFilter in front of it has dropped comments and the
// other fields without data, and restarts the idle watch.)
type trackBody struct {
	rc      io.ReadCloser
	maxLine int    // cap on one line; 0: none
	line    []byte // the start of the current line, at most maxLine bytes (maxEvent for an error event)
	long    bool   // the current line is longer than kept
	capture bool   // the current line is an error event being kept whole
	done    bool
	event   []byte // the payload of the first error event, nil if none
	lineLen int    // bytes of the current line so far
	nonData int    // bytes of non-data lines so far
	err     error  // a cap was passed: every later read fails with it
}

// lineError is a stream line, or the lines without data, past a cap.
type lineError struct {
	what  string
	limit int
}

func (e *lineError) Error() string {
	return fmt.Sprintf("%s: %s is over the limit of %s", ErrTooLarge, e.what, humanize.Bytes(int64(e.limit)))
}

func (e *lineError) Unwrap() error { return ErrTooLarge }

const (
	maxLine  = 32
	maxEvent = 64 << 10
)

func (b *trackBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.rc.Read(p)
	for i, ch := range p[:n] {
		if ch == '\n' {
			b.endLine()
			if b.nonData > maxNonData {
				b.err = &lineError{what: "the stream's lines without data", limit: maxNonData}
				return i + 1, b.err
			}
			continue
		}
		if b.lineLen++; b.maxLine > 0 && b.lineLen > b.maxLine {
			b.err = &lineError{what: "one line of the stream", limit: b.maxLine}
			return i, b.err
		}
		switch {
		case len(b.line) < maxLine || b.capture && len(b.line) < maxEvent:
			b.line = append(b.line, ch)
			if len(b.line) == maxLine {
				b.capture = b.event == nil && isErrorLine(b.line)
			}
		default:
			b.long = true
		}
	}
	if err != nil {
		b.endLine()
	}
	return n, err
}

func (b *trackBody) endLine() {
	if !bytes.HasPrefix(bytes.TrimSpace(b.line), []byte("data:")) {
		b.nonData += b.lineLen
	}
	b.lineLen = 0
	if !b.long {
		s := bytes.TrimSpace(b.line)
		if rest, ok := bytes.CutPrefix(s, []byte("data:")); ok {
			rest = bytes.TrimSpace(rest)
			switch {
			case string(rest) == "[DONE]":
				b.done = true
			case b.event == nil && isErrorLine(s):
				b.event = bytes.Clone(rest)
			}
		}
	}
	b.line, b.long, b.capture = b.line[:0], false, false
}

func (b *trackBody) sawDone() bool { return b != nil && b.done }

// errorEvent returns the payload of the first error event seen, or nil.
func (b *trackBody) errorEvent() []byte {
	if b == nil {
		return nil
	}
	return b.event
}

func (b *trackBody) Close() error { return b.rc.Close() }
