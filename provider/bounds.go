package provider

import (
	"github.com/tick-agent/tick/agent/humanize"

	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Defaults of the limits a Client puts on a server (see Config).
const (
	// DefaultIdleTimeout is how long a server may stay silent (no response
	// headers, no first byte of the stream, no next byte) before the call
	// fails. It is long because local servers may load a model first.
	DefaultIdleTimeout = 5 * time.Minute
	// DefaultMaxResponse caps one answer: text, reasoning and tool calls
	// (ids, names and arguments) together, in bytes.
	DefaultMaxResponse = 32 << 20
	// DefaultMaxLine caps one line of the event stream, in bytes.
	DefaultMaxLine = 8 << 20
	// DefaultMaxArgs caps the arguments of one tool call, in bytes.
	DefaultMaxArgs = 1 << 20
	// MaxCalls caps the tool calls kept of one answer; the calls past it
	// are dropped as they arrive and stand as one call that is not run
	// (see ArgsCut.Calls).
	MaxCalls = 256
)

// maxNonData caps the bytes of lines that are not data lines (comments,
// keep-alives, unknown fields) in one stream: go-openai keeps them all.
const maxNonData = 1 << 20

// keptOfTooLarge is how much of the text of an answer that went past
// MaxResponse is kept in the Response (and so in the history).
const keptOfTooLarge = 64 << 10

// ErrTimeout means the server stayed silent for longer than the idle
// timeout. Stream returns it inside a *TimeoutError.
var ErrTimeout = errors.New("the server stopped answering")

// ErrTooLarge means the server sent more than a cap allows: a whole answer
// over MaxResponse or a stream line over MaxLine (or too many lines that
// carry no data). Stream returns it wrapped, with the start of the answer.
var ErrTooLarge = errors.New("the server's answer is too large")

// ErrEmptyStream means a stream ended without carrying any answer: only
// [DONE], or lines that are not JSON chunks. It is retried once like a cut
// stream.
var ErrEmptyStream = errors.New("the stream carried no answer")

// TimeoutError is a call that ended because the server was silent for
// After while tick waited for Waiting ("the response headers", "the
// first chunk", "the next chunk"). It wraps ErrTimeout.
type TimeoutError struct {
	URL     string
	After   time.Duration
	Waiting string
}

// Error implements error. After is shown in whole seconds, or in
// milliseconds when it is under a second (a 250ms timeout is not "0s").
func (e *TimeoutError) Error() string {
	after := e.After.Round(time.Second)
	if e.After < time.Second {
		after = e.After.Round(time.Millisecond)
	}
	return fmt.Sprintf("model request to %s timed out: no answer for %s while waiting for %s (the idle timeout; raise it with --idle-timeout)",
		e.URL, after, e.Waiting)
}

// Unwrap returns ErrTimeout.
func (e *TimeoutError) Unwrap() error { return ErrTimeout }

// Waiting phases of an idle watch.
const (
	waitHeaders = "the response headers"
	waitFirst   = "the first chunk"
	waitNext    = "the next chunk"
)

// idleWatch cancels one attempt when nothing arrives for d. kick restarts
// the clock (called on headers and on every read of the body); the phase
// says what was awaited, for the message.
type idleWatch struct {
	d      time.Duration
	url    string
	cancel context.CancelCauseFunc

	mu    sync.Mutex
	t     *time.Timer
	phase string
	err   *TimeoutError // set when the watch fired
}

// watchIdle returns a context for one attempt that is cancelled when the
// server is silent for d (never when d <= 0), and its watch.
func watchIdle(ctx context.Context, d time.Duration, url string) (context.Context, *idleWatch) {
	actx, cancel := context.WithCancelCause(ctx)
	w := &idleWatch{d: d, url: url, cancel: cancel, phase: waitHeaders}
	if d > 0 {
		w.t = time.AfterFunc(d, w.fire)
	}
	return actx, w
}

func (w *idleWatch) fire() {
	w.mu.Lock()
	w.err = &TimeoutError{URL: w.url, After: w.d, Waiting: w.phase}
	err := w.err
	w.mu.Unlock()
	w.cancel(err)
}

// kick restarts the clock and sets what is awaited next ("" keeps it).
func (w *idleWatch) kick(phase string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if phase != "" {
		w.phase = phase
	}
	if w.t != nil && w.err == nil {
		w.t.Reset(w.d)
	}
}

// fired returns the timeout when the watch ended the attempt, else nil.
func (w *idleWatch) fired() *TimeoutError {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// stop ends the watch and releases the attempt's context.
func (w *idleWatch) stop() {
	w.mu.Lock()
	if w.t != nil {
		w.t.Stop()
	}
	w.mu.Unlock()
	w.cancel(context.Canceled)
}

// tooLarge is the error for a response past a cap: what went over, and by
// how much.
func tooLarge(url, what string, limit int) error {
	return fmt.Errorf("read stream from %s: %w: %s is over the limit of %s; the answer was cut there",
		url, ErrTooLarge, what, humanize.Bytes(int64(limit)))
}

// tooMany is the error for a run of chunks past a cap.
func tooMany(url, what string, limit int) error {
	return fmt.Errorf("read stream from %s: %w: %s is over the limit of %d; the answer was cut there",
		url, ErrTooLarge, what, limit)
}
