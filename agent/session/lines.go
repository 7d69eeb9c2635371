package session

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Line caps. A session file is read one line at a time, never whole: a
// line longer than the cap is skipped (its bytes are read and dropped, not
// kept), so a file with a huge line costs the cap, not the line.
const (
	// maxLoadLine caps a line that Load and Open decode: twice the largest
	// response the provider keeps, room for JSON escapes.
	maxLoadLine = 64 << 20
	// maxListLine caps a line that List decodes whole; of a longer line it
	// reads only the start (type, time, role and the first of the text).
	maxListLine = 64 << 10
)

// line is one line of a file as lineReader returns it.
type line struct {
	text       []byte // the line without its newline; at most the cap (a prefix when long)
	start      int64  // offset of its first byte
	next       int64  // offset after it (and its newline)
	terminated bool   // it ends with a newline
	long       bool   // it is longer than the cap: text holds only its start
}

// size is the line's length in bytes, without the newline.
func (l line) size() int64 {
	if l.terminated {
		return l.next - l.start - 1
	}
	return l.next - l.start
}

// lineReader reads a file line by line, keeping at most max bytes of each.
type lineReader struct {
	r   *bufio.Reader
	max int
	off int64
	buf []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line; io.EOF when there is none. The line's text
// is valid until the next call.
func (lr *lineReader) next() (line, error) {
	ln := line{start: lr.off}
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.off += int64(len(chunk))
		if n := len(chunk); n > 0 && chunk[n-1] == '\n' {
			chunk = chunk[:n-1]
			ln.terminated = true
		}
		if room := lr.max - len(lr.buf); len(chunk) > room {
			chunk = chunk[:max(room, 0)]
			ln.long = true
		}
		lr.grow(len(chunk))
		lr.buf = append(lr.buf, chunk...)
		switch {
		case err == nil:
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && lr.off > ln.start:
		default:
			return line{}, err
		}
		ln.next, ln.text = lr.off, lr.buf
		return ln, nil
	}
}

// grow makes room for n more bytes in buf, doubling its capacity (up to
// the cap), so that a long line costs about twice its kept length in
// allocations.
func (lr *lineReader) grow(n int) {
	need := len(lr.buf) + n
	if need <= cap(lr.buf) {
		return
	}
	c := min(max(2*cap(lr.buf), need, 4096), max(lr.max, need))
	buf := make([]byte, len(lr.buf), c)
	copy(buf, lr.buf)
	lr.buf = buf
}

// blank reports whether the line has no content.
func (l line) blank() bool { return !l.long && len(bytes.TrimSpace(l.text)) == 0 }
