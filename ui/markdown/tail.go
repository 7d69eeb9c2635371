package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/ui/termsafe"
)

// The unfinished tail is shown as plain text, wrapped here rather than by
// the renderer. Its complete lines are wrapped once (tailCache); the incomplete
// last line is wrapped incrementally (partialCache): greedy wrapping never
// changes a wrapped line once a later one exists, so only the last wrapped
// line is recomputed as text arrives, and streaming one very long line costs
// time linear in its length.

// tailCache holds the wrapped lines of the tail's complete lines
// text[start:end] for one width.
type tailCache struct {
	start, end, width int
	lines             []string
}

// partialCache holds the incomplete last line starting at start, sanitised
// up to raw, and its wrapped lines up to the last one (which starts at
// san[last:]).
type partialCache struct {
	start, raw, width int
	col               int // rune column at raw, for tab stops
	san               []byte
	last              int
	stable            []string
}

// geometry returns the indent and wrap limit of plain lines at width w: the
// style's margin on both sides when there is room, so plain text sits where
// rendered text sits.
func geometry(w, margin int) (pad string, limit int) {
	if w < 2*margin+1 {
		return "", w
	}
	return strings.Repeat(" ", margin), w - 2*margin
}

// tailEmpty reports whether the tail holds nothing to show.
func (r *Renderer) tailEmpty() bool {
	return !r.hasContent && isBlank(r.text[r.scan:])
}

// appendTail appends the tail wrapped as plain text at width w to dst.
func (r *Renderer) appendTail(dst []string, w int) []string {
	pad, limit := geometry(w, r.style.margin())
	tc := &r.tail
	if tc.start != r.tailStart || tc.width != w {
		*tc = tailCache{start: r.tailStart, end: r.tailStart, width: w}
	}
	if r.scan > tc.end {
		for l := range strings.Lines(string(r.text[tc.end:r.scan])) {
			tc.lines = appendPlain(tc.lines, sanitize(strings.TrimSuffix(l, "\n")), pad, limit)
		}
		tc.end = r.scan
	}
	dst = append(dst, tc.lines...)
	if r.scan >= len(r.text) {
		return dst
	}

	p := &r.partial
	if p.start != r.scan || p.width != w {
		*p = partialCache{start: r.scan, raw: r.scan, width: w}
	}
	n := sanitizeRunes(&p.san, r.text[p.raw:], &p.col)
	p.raw += n
	lines, lastStart := wrapPlain(string(p.san[p.last:]), limit)
	for _, l := range lines[:len(lines)-1] {
		p.stable = append(p.stable, padLine(pad, l, limit))
	}
	p.last += lastStart

	dst = append(dst, p.stable...)
	return append(dst, padLine(pad, lines[len(lines)-1], limit))
}

// appendPlain appends the sanitised line s wrapped to limit to dst.
func appendPlain(dst []string, s, pad string, limit int) []string {
	lines, _ := wrapPlain(s, limit)
	for _, l := range lines {
		dst = append(dst, padLine(pad, l, limit))
	}
	return dst
}

func padLine(pad, l string, limit int) string {
	if l == "" {
		return ""
	}
	if limit < 2 && ansi.StringWidth(l) > limit { // a wide character in a 1-cell pane
		return ansi.Truncate(l, limit, "")
	}
	return pad + l
}

// wrapPlain wraps the sanitised single line s greedily at limit cells:
// breaks go at runs of spaces (which are dropped), words longer than a line
// are cut, leading indentation is kept. It returns the lines (trailing
// spaces trimmed; at least one) and the byte offset in s where the last
// line starts. Wrapping s[lastStart:] again gives the same last lines, and
// appending to s never changes the lines before the last.
func wrapPlain(s string, limit int) (lines []string, lastStart int) {
	limit = max(limit, 1)
	lineStart, col := 0, 0
	brk, next := -1, -1 // end of content before the latest space run; start of the word after it
	for pos := 0; pos < len(s); {
		var cl string
		var w int
		if c := s[pos]; c < utf8.RuneSelf && (pos+1 == len(s) || s[pos+1] < utf8.RuneSelf) {
			cl, w = s[pos:pos+1], 1
		} else {
			cl, w = ansi.FirstGraphemeCluster(s[pos:], ansi.GraphemeWidth)
		}
		if cl == " " {
			if pos > lineStart && s[pos-1] != ' ' {
				brk = pos
			}
			col++
			pos++
			next = pos
			continue
		}
		if col+w > limit && col > 0 {
			if brk > lineStart {
				lines = append(lines, s[lineStart:brk])
				lineStart = next
				col = ansi.StringWidth(s[next:pos])
			} else {
				lines = append(lines, strings.TrimRight(s[lineStart:pos], " "))
				lineStart, col = pos, 0
			}
			brk = -1
			continue
		}
		col += w
		pos += len(cl)
	}
	return append(lines, strings.TrimRight(s[lineStart:], " ")), lineStart
}

// sanitize makes raw model text safe to render and measure: termsafe.Text
// (no control character other than newline and tab, no escape sequence,
// invisible characters shown as ⟨U+XXXX⟩, invalid UTF-8 as U+FFFD), then
// tabs become spaces (tab stops every 4 columns).
func sanitize(s string) string {
	s = termsafe.Text(s)
	if !strings.Contains(s, "\t") {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	col := 0
	sanitizeRunes(&b, []byte(s), &col)
	return string(b)
}

// sanitizeRunes appends raw, sanitised rune by rune (termsafe.AppendRune,
// tabs expanded), to dst and returns how many bytes of raw it consumed:
// all of it, except an incomplete UTF-8 sequence at the end (more bytes may
// complete it). col is the rune column in the current line.
func sanitizeRunes(dst *[]byte, raw []byte, col *int) int {
	i := 0
	prev := rune(0)
	for i < len(raw) {
		c, size := rune(raw[i]), 1
		if c >= utf8.RuneSelf {
			if !utf8.FullRune(raw[i:]) {
				return i
			}
			c, size = utf8.DecodeRune(raw[i:])
		}
		i += size
		switch {
		case c == '\n':
			*dst = append(*dst, '\n')
			*col = 0
		case c == '\t':
			n := 4 - *col%4
			*dst = append(*dst, "    "[:n]...)
			*col += n
		default:
			n := len(*dst)
			*dst = termsafe.AppendRune(*dst, prev, c) // RuneError for invalid bytes
			*col += utf8.RuneCount((*dst)[n:])
		}
		prev = c
	}
	return i
}
