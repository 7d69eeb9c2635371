package agent

import (
	"sync"
	"time"
)

// ToolOutput is the output a running tool call (bash) has printed so far,
// for a front-end to show live: Tail is the last bytes of it (at most
// OutputTailMax, possibly starting inside a line or a character, raw and
// untrusted), Total how many bytes it printed in all.
//
// Delivery rules: ToolOutput events of a call come between its ToolStart
// and its ToolEnd, never after; they are coalesced (at most one per
// OutputInterval per call), so a flood of output costs a few events a
// second. Each one replaces the previous: a front-end keeps only the
// latest. The tool's result in ToolEnd is what the model gets; ToolOutput
// is only for the eyes. A subagent's arrive wrapped in Subagent.
type ToolOutput struct {
	ID    string `json:"id"`
	Tail  string `json:"tail"`
	Total int64  `json:"total"`
}

// Type implements Event.
func (ToolOutput) Type() string { return "tool_output" }

// Bounds of live output.
const (
	OutputTailMax  = 16 << 10               // bytes of Tail
	OutputInterval = 100 * time.Millisecond // least time between two ToolOutput events of a call
)

// liveOutput collects a running call's output (it is the call's
// tools.WithProgress writer) and emits it as ToolOutput events, coalesced:
// a goroutine started by the first write sends the latest tail every
// OutputInterval while there is news. stop flushes and waits for it, so
// that nothing is sent after the call's ToolEnd.
type liveOutput struct {
	id   string
	emit func(Event)

	mu      sync.Mutex
	buf     []byte
	total   int64
	dirty   bool
	started bool
	done    chan struct{}
	exited  chan struct{}
}

func newLiveOutput(id string, emit func(Event)) *liveOutput {
	return &liveOutput{id: id, emit: emit, done: make(chan struct{}), exited: make(chan struct{})}
}

// Write keeps the tail of p; it never blocks on the front-end.
func (o *liveOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.total += int64(len(p))
	if len(p) >= OutputTailMax {
		o.buf = append(o.buf[:0], p[len(p)-OutputTailMax:]...)
	} else {
		if over := len(o.buf) + len(p) - OutputTailMax; over > 0 {
			o.buf = append(o.buf[:0], o.buf[over:]...)
		}
		o.buf = append(o.buf, p...)
	}
	o.dirty = true
	if !o.started {
		o.started = true
		go o.run()
	}
	return len(p), nil
}

// run sends the tail every OutputInterval while it changed, until stop.
func (o *liveOutput) run() {
	defer close(o.exited)
	tick := time.NewTicker(OutputInterval)
	defer tick.Stop()
	o.flush() // the first output shows at once
	for {
		select {
		case <-tick.C:
			o.flush()
		case <-o.done:
			o.flush()
			return
		}
	}
}

// flush sends the latest tail when it changed since the last one.
func (o *liveOutput) flush() {
	o.mu.Lock()
	if !o.dirty {
		o.mu.Unlock()
		return
	}
	ev := ToolOutput{ID: o.id, Tail: string(o.buf), Total: o.total}
	o.dirty = false
	o.mu.Unlock()
	o.emit(ev)
}

// stop sends what is left and waits until nothing more can be sent.
func (o *liveOutput) stop() {
	o.mu.Lock()
	started := o.started
	o.started = true // a late write starts nothing
	o.mu.Unlock()
	close(o.done)
	if started {
		<-o.exited
	}
}
