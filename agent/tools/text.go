package tools

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tick-agent/tick/agent/humanize"
)

// headTail is an io.Writer that keeps the first and the last bytes written
// to it, up to limit in all, and counts what falls in between. Its memory
// stays bounded however much is written.
type headTail struct {
	limit    int
	head     []byte // the first limit/2 bytes
	tail     []byte // ring buffer of the last limit-limit/2 bytes, plus one
	tailPos  int    // next write position in tail once it is full
	tailFull bool
	total    int64 // bytes written
	lines    int64 // newlines written
}

func newHeadTail(limit int) *headTail {
	if limit < 2 {
		limit = 2
	}
	return &headTail{limit: limit, head: make([]byte, 0, limit/2)}
}

// Write never fails.
func (h *headTail) Write(p []byte) (int, error) {
	n := len(p)
	h.total += int64(n)
	h.lines += int64(bytes.Count(p, []byte{'\n'}))
	if room := cap(h.head) - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	// One byte more than is kept: the byte before the kept tail tells
	// whether the tail starts at a line boundary.
	size := h.limit - cap(h.head) + 1
	if len(p) >= size {
		// Only the end of p survives; restart the ring with it.
		h.tail = append(h.tail[:0], p[len(p)-size:]...)
		h.tailPos, h.tailFull = 0, true
		return n, nil
	}
	for len(p) > 0 {
		if !h.tailFull {
			k := min(size-len(h.tail), len(p))
			h.tail = append(h.tail, p[:k]...)
			p = p[k:]
			if len(h.tail) == size {
				h.tailFull, h.tailPos = true, 0
			}
			continue
		}
		k := copy(h.tail[h.tailPos:], p)
		p = p[k:]
		h.tailPos = (h.tailPos + k) % size
	}
	return n, nil
}

// String returns everything written when it fit, or else the head, a line
// saying how many bytes and lines were cut, and the tail. The cut is moved
// to line boundaries when one is near, so no line is shown in part.
func (h *headTail) String() string {
	tail := h.tail
	if h.tailFull && h.tailPos > 0 {
		tail = append(append([]byte{}, h.tail[h.tailPos:]...), h.tail[:h.tailPos]...)
	}
	head := h.head
	if h.total <= int64(h.limit) {
		return string(head) + string(tail)
	}
	prevNewline := tail[0] == '\n'
	tail = tail[1:]
	// Move the cut to line boundaries when that costs less than a quarter
	// of what is kept.
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 && len(head)-(i+1) < len(head)/4 {
		head = head[:i+1]
	}
	if i := bytes.IndexByte(tail, '\n'); !prevNewline && i >= 0 && i+1 < len(tail)/4 {
		tail = tail[i+1:]
	}
	cut := h.total - int64(len(head)) - int64(len(tail))
	cutLines := h.lines - int64(bytes.Count(head, []byte{'\n'})) - int64(bytes.Count(tail, []byte{'\n'}))
	var b strings.Builder
	b.Write(head)
	if len(head) > 0 && head[len(head)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "\n... [%s bytes (%s lines) cut from the middle of the output] ...\n\n",
		humanize.Digits(cut), humanize.Digits(cutLines))
	b.Write(tail)
	return b.String()
}

// cleanOutput makes terminal output fit for the model and the screen:
// invalid UTF-8 becomes U+FFFD, ANSI escape sequences are removed (in
// their 7-bit ESC and their 8-bit C1 forms), CRLF becomes LF, a carriage
// return inside a line keeps only what was drawn after it (progress bars),
// and other control characters except tab are dropped, C1 (U+0080–U+009F)
// included. (The screen gets its own, stricter pass in ui/termsafe.)
func cleanOutput(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	b := make([]byte, 0, len(s))
	lineStart := 0 // position in b where the current line starts
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
		case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f:
			i = skipC1(s, i)
		case c == '\r':
			// Overwrite the line so far, as a terminal would (roughly).
			if i+1 < len(s) && s[i+1] != '\n' {
				b = b[:lineStart]
			}
		case c == '\n':
			b = append(b, c)
			lineStart = len(b)
		case c == '\t' || c >= 0x20 && c != 0x7f:
			b = append(b, c)
		}
	}
	return string(b)
}

// skipEscape returns the index of the last byte of the escape sequence that
// starts at s[i] (an ESC byte).
func skipEscape(s string, i int) int {
	if i+1 >= len(s) {
		return i
	}
	switch s[i+1] {
	case '[': // CSI: parameters and intermediates, then a final byte @..~
		j := i + 2
		for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
			j++
		}
		return min(j, len(s)-1)
	case ']', 'P', '_', '^': // OSC, DCS...: up to BEL or ESC \
		for j := i + 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 1
			}
		}
		return len(s) - 1
	default: // two-byte sequence such as ESC =
		return i + 1
	}
}

// skipC1 returns the index of the last byte of the C1 control (UTF-8:
// 0xC2 and a byte 0x80..0x9F) that starts at s[i], with the sequence it
// introduces: CSI (U+009B) takes its parameters and final byte, OSC, DCS,
// SOS, PM and APC run up to their terminator.
func skipC1(s string, i int) int {
	switch s[i+1] {
	case 0x9b:
		j := i + 2
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			return j
		}
		return j - 1
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f:
		for j := i + 2; j < len(s); j++ {
			switch {
			case s[j] == 0x07:
				return j
			case s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\',
				s[j] == 0xc2 && j+1 < len(s) && s[j+1] == 0x9c:
				return j + 1
			}
		}
	}
	return i + 1
}

// looksBinary reports whether sample (the start of a file) is not text: it
// holds a NUL byte, or more than 30% of it is invalid UTF-8 or control
// characters other than whitespace, backspace and escape.
func looksBinary(sample []byte) bool {
	if bytes.IndexByte(sample, 0) >= 0 {
		return true
	}
	bad := 0
	for i := 0; i < len(sample); {
		r, size := utf8.DecodeRune(sample[i:])
		if r == utf8.RuneError && size <= 1 {
			if len(sample)-i < utf8.UTFMax && !utf8.FullRune(sample[i:]) {
				break // a rune cut by the end of the sample
			}
			bad++
		} else if r < 0x20 && !strings.ContainsRune("\t\n\r\f\v\b\x1b", r) {
			bad++
		}
		i += size
	}
	return bad*10 > len(sample)*3
}

// countLines counts the lines of s: its newlines, plus one for a last line
// without a newline.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// plural returns "1 line" or "3 lines".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// firstLine returns s's first non-empty line, cut to max runes, with "…"
// when anything was left out.
func firstLine(s string, max int) string {
	s = strings.TrimSpace(s)
	line, rest, _ := strings.Cut(s, "\n")
	line = strings.TrimSpace(line)
	more := strings.TrimSpace(rest) != ""
	if utf8.RuneCountInString(line) > max {
		line = string([]rune(line)[:max])
		more = true
	}
	if more {
		line += " …"
	}
	return line
}
