package mcp

import "sync"

// tailBuffer keeps the last max bytes written to it; a server's stderr goes
// here so that a chatty server cannot fill memory.
type tailBuffer struct {
	mu   sync.Mutex
	max  int
	buf  []byte
	lost bool // bytes were dropped from the front
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

// Write keeps the tail of p; it never fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.lost = true
	}
	return len(p), nil
}

// String returns the kept text, marked when its start was dropped.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.lost {
		return "…" + string(t.buf)
	}
	return string(t.buf)
}
