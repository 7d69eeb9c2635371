package sandbox

import (
	"fmt"
	"sync"
)

// outputStderrMax is how much of the start and of the end of a command's
// standard error Cmd.Output keeps for its ExitError (as exec.Cmd does).
const outputStderrMax = 32 << 10

// endsBuffer keeps the first n bytes written to it and the last n; what
// lies between is dropped, so that a command's output cannot grow it
// without bound.
type endsBuffer struct {
	n       int
	mu      sync.Mutex
	head    []byte
	tail    []byte
	dropped int64
}

// Write keeps what fits in the start, then the latest n bytes.
func (b *endsBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	written := len(p)
	if room := b.n - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	b.tail = append(b.tail, p...)
	if over := len(b.tail) - b.n; over > 0 {
		b.dropped += int64(over)
		b.tail = append(b.tail[:0:0], b.tail[over:]...)
	}
	return written, nil
}

// Bytes returns the start, a line saying how much was left out if any,
// and the end.
func (b *endsBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := append([]byte(nil), b.head...)
	if b.dropped > 0 {
		out = fmt.Appendf(out, "\n... omitting %d bytes ...\n", b.dropped)
	}
	return append(out, b.tail...)
}
