package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// tok is a run of spaces or of other characters from one span, with its
// width in cells.
type tok struct {
	s     string
	w     int
	space bool
	span  int // index of the span it comes from
}

// wrapSpans lays spans out in lines of at most limit cells, greedily:
// lines break at runs of spaces (which are dropped there), a word longer
// than a line is cut between grapheme clusters. With keepLead the spaces
// the text starts with are kept (code's indentation). It returns each line
// as the pieces of spans it holds.
func wrapSpans(spans []span, limit int, keepLead bool) [][]tok {
	limit = max(limit, 1)
	toks := tokens(spans)
	var lines [][]tok
	var cur []tok
	col, pendW, pendFrom := 0, 0, -1
	for i := 0; i < len(toks); {
		if toks[i].space {
			switch {
			case len(cur) == 0 && len(lines) == 0 && keepLead:
				cur = append(cur, toks[i])
				col += toks[i].w
			case len(cur) > 0:
				if pendFrom < 0 {
					pendFrom = i
				}
				pendW += toks[i].w
			}
			i++
			continue
		}
		j, ww := i, 0
		for j < len(toks) && !toks[j].space {
			ww += toks[j].w
			j++
		}
		if col > 0 && col+pendW+ww > limit {
			lines, cur, col = append(lines, cur), nil, 0
		} else if pendFrom >= 0 {
			cur = append(cur, toks[pendFrom:i]...)
			col += pendW
		}
		pendW, pendFrom = 0, -1
		if col+ww <= limit {
			cur = append(cur, toks[i:j]...)
			col += ww
		} else {
			lines, cur, col = cutWord(lines, cur, col, toks[i:j], limit)
		}
		i = j
	}
	return append(lines, cur)
}

// cutWord lays out a word too long for a line: as many grapheme clusters
// as fit on each line.
func cutWord(lines [][]tok, cur []tok, col int, word []tok, limit int) ([][]tok, []tok, int) {
	for _, t := range word {
		start := 0
		for pos := 0; pos < len(t.s); {
			cl, w := cluster(t.s[pos:])
			if col+w > limit && col > 0 {
				if pos > start {
					cur = append(cur, tok{s: t.s[start:pos], span: t.span})
				}
				lines, cur, col = append(lines, cur), nil, 0
				start = pos
			}
			col += w
			pos += len(cl)
		}
		if start < len(t.s) {
			cur = append(cur, tok{s: t.s[start:], span: t.span})
		}
	}
	return lines, cur, col
}

// cluster returns the grapheme cluster s starts with and its width.
func cluster(s string) (string, int) {
	if s[0] < utf8.RuneSelf && (len(s) == 1 || s[1] < utf8.RuneSelf) {
		return s[:1], 1
	}
	return ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
}

// tokens cuts spans into runs of spaces and runs of other characters.
func tokens(spans []span) []tok {
	toks := make([]tok, 0, len(spans)*4)
	for i, sp := range spans {
		s := sp.text
		for s != "" {
			space := s[0] == ' '
			n := 1
			for n < len(s) && (s[n] == ' ') == space {
				n++
			}
			toks = append(toks, tok{s: s[:n], w: width(s[:n]), space: space, span: i})
			s = s[n:]
		}
	}
	return toks
}

// width is s's width in cells (ansi.StringWidth, quicker for ASCII).
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// writeLine writes the pieces of one line, each run of one span in its
// look and hyperlink, and returns the line. Spaces that end the line are
// dropped unless they paint something (a background, a line).
func writeLine(b *strings.Builder, spans []span, line []tok) string {
	for len(line) > 0 {
		last := line[len(line)-1]
		if strings.Trim(last.s, " ") != "" || paints(spans[last.span].a) {
			break
		}
		line = line[:len(line)-1]
	}
	b.Reset()
	for i := 0; i < len(line); {
		sp := spans[line[i].span]
		j := i + 1
		for j < len(line) && sameLook(spans[line[j].span], sp) {
			j++
		}
		if sp.link != "" {
			b.WriteString(ansi.SetHyperlink(sp.link))
		}
		on := sp.a.sgr()
		b.WriteString(on)
		for _, t := range line[i:j] {
			b.WriteString(t.s)
		}
		if on != "" {
			b.WriteString("\x1b[m")
		}
		if sp.link != "" {
			b.WriteString(ansi.ResetHyperlink())
		}
		i = j
	}
	return b.String()
}

func sameLook(a, b span) bool { return a.a == b.a && a.link == b.link }

// paints reports whether a space drawn in a shows.
func paints(a attr) bool { return a.bg != "" || a.underline || a.strike }
