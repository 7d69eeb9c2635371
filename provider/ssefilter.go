package provider

import (
	"bytes"
	"io"
)

// sseFilter is a response body that drops the lines of an event stream
// that carry no data — comments (": keep-alive") and the event:, id: and
// retry: fields — before go-openai's line reader sees them: that reader
// keeps every line that is not a data line for as long as the stream
// lasts. Every read that brings bytes, dropped or not, restarts the idle
// watch (a keep-alive is a sign of life). More than maxNonData bytes
// dropped since the last data line fail the read with a *lineError, so
// that a server sending only keep-alives cannot hold a call forever.
type sseFilter struct {
	rc    io.ReadCloser
	watch *idleWatch // nil: none

	buf     []byte // one read's worth of raw bytes
	out     []byte // filtered bytes not yet returned
	head    []byte // the start of the current line while it is undecided
	state   int    // what happens to the rest of the current line
	dropped int    // bytes dropped since the last data line
	err     error  // the error that ended the stream, or a cap passed
}

// What sseFilter does with the rest of a line.
const (
	lineUndecided = iota
	linePass
	lineDrop
)

// droppedFields are the starts of lines that carry no data.
var droppedFields = [][]byte{[]byte(":"), []byte("event:"), []byte("id:"), []byte("retry:")}

var dataField = []byte("data:")

func newSSEFilter(rc io.ReadCloser, watch *idleWatch) *sseFilter {
	return &sseFilter{rc: rc, watch: watch, buf: make([]byte, 32<<10)}
}

func (f *sseFilter) Read(p []byte) (int, error) {
	for len(f.out) == 0 && f.err == nil {
		n, err := f.rc.Read(f.buf)
		if n > 0 && f.watch != nil {
			f.watch.kick("")
		}
		f.process(f.buf[:n])
		if err != nil && f.err == nil {
			f.out = append(f.out, f.head...) // an unfinished last line
			f.head = f.head[:0]
			f.err = err
		}
	}
	if len(f.out) == 0 {
		return 0, f.err
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	if len(f.out) == 0 {
		f.out = f.out[:0:0] // let a large buffer go
	}
	return n, nil
}

// process filters raw bytes into out.
func (f *sseFilter) process(raw []byte) {
	for len(raw) > 0 && f.err == nil {
		switch f.state {
		case linePass:
			i := bytes.IndexByte(raw, '\n')
			if i < 0 {
				f.out = append(f.out, raw...)
				return
			}
			f.out = append(f.out, raw[:i+1]...)
			raw, f.state = raw[i+1:], lineUndecided
		case lineDrop:
			i := bytes.IndexByte(raw, '\n')
			if i < 0 {
				f.drop(len(raw))
				return
			}
			f.drop(i + 1)
			raw, f.state = raw[i+1:], lineUndecided
		default:
			c := raw[0]
			raw = raw[1:]
			f.head = append(f.head, c)
			f.decide(c == '\n')
		}
	}
}

// decide looks at the start of the line in head: once it is known whether
// the line carries data, head is passed on or dropped.
func (f *sseFilter) decide(complete bool) {
	h := f.head
	wait := false
	for _, field := range droppedFields {
		if bytes.HasPrefix(h, field) {
			f.drop(len(h))
			f.head, f.state = f.head[:0], lineDrop
			if complete {
				f.state = lineUndecided
			}
			return
		}
		wait = wait || bytes.HasPrefix(field, h)
	}
	if bytes.HasPrefix(h, dataField) {
		f.dropped = 0
	} else if bytes.HasPrefix(dataField, h) {
		wait = true
	}
	if wait && !complete {
		return
	}
	f.out = append(f.out, h...)
	f.head, f.state = f.head[:0], linePass
	if complete {
		f.state = lineUndecided
	}
}

// drop counts n dropped bytes against the cap.
func (f *sseFilter) drop(n int) {
	if f.dropped += n; f.dropped > maxNonData {
		f.err = &lineError{what: "what the server sent without data (comments, keep-alives)", limit: maxNonData}
	}
}

func (f *sseFilter) Close() error { return f.rc.Close() }
