package chat

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// A mouse copy gives the logical text of what it covers, not the cells of
// the screen: a wrapped paragraph is one line, code is as it was written,
// and what only lays text out (margins, the prompt, quote bars, the gutter
// of a tool's output, wrap indents) stays behind. Each part of the chat
// (see scroll.go) knows its logical text and, for each of its rendered
// lines, the cells that show a character of it (marks); a selection copies
// the logical text from the first character it covers to the last.
//
// The ends: a selection starting or ending inside a line copies the part of
// it that is selected, character for character, as the screen shows it. A
// selection that reaches past the last character of a line that goes on no
// further on the screen copies the rest of its logical line too (the end of
// a tool's output line cut at the pane's edge); one that starts before the
// first character of a logical line copies it from its start (the
// indentation of code).
//
// Lines that show none of the logical text are copied as shown when they
// say something (a tool call's line, a diff) and left out when they are
// decoration only (a hint such as "… +3 lines", a rule). A blank line
// stays a blank line.

// rowKind says how a rendered line of an entry is copied.
type rowKind uint8

const (
	rowShown  rowKind = iota // copied as shown (the zero value)
	rowText                  // shows the entry's logical text from column col
	rowChrome                // a hint or a title: never copied
)

// rowInfo is what one rendered line of an entry shows of its logical text.
type rowInfo struct {
	kind rowKind
	col  int // rowText: the cell where the text starts (before it: prompt, gutter, bar)
	line int // rowText: the logical line it starts, or -1: it goes on where the line above stopped
}

// textRow is the rowInfo of a line showing text from column col: the
// start of logical line line when first, else the rest of the line above.
func textRow(col int, first bool, line int) rowInfo {
	if !first {
		line = -1
	}
	return rowInfo{kind: rowText, col: col, line: line}
}

// rowsOut collects an entry's rendered lines with their rowInfo.
type rowsOut struct {
	lines  []string
	rows   []rowInfo
	logic  string
	nlines int // lines of logic added by join
}

func (r *rowsOut) add(line string, info rowInfo) {
	r.lines = append(r.lines, line)
	r.rows = append(r.rows, info)
}

// join appends lines that show text (their rows count its lines from 0)
// after r's own: the logical texts a line apart. Lines that show no text
// add none (text is then "").
func (r *rowsOut) join(lines []string, rows []rowInfo, text string) {
	base := r.nlines
	for _, in := range rows {
		if in.kind == rowText {
			if r.nlines > 0 {
				r.logic += "\n"
			}
			r.logic += text
			r.nlines += strings.Count(text, "\n") + 1
			break
		}
	}
	for i, l := range lines {
		in := rowInfo{}
		if i < len(rows) {
			in = rows[i]
		}
		if in.kind == rowText && in.line >= 0 {
			in.line += base
		}
		r.add(l, in)
	}
}

// mark is a cell of a rendered line that shows text[off:end] of a logical
// text.
type mark struct{ col, off, end int }

// logical is the logical text of a part of the chat and, per rendered
// line, the cells that show it (none for a line copied as shown or left
// out: see kinds).
type logical struct {
	text  string
	marks [][]mark
	kinds []rowKind
}

// alignFree finds the cells of rows that show text: each row's visible
// characters, in order, are matched against text's, blanks skipped on both
// sides; a character text does not have next (a bar, a margin, a bullet
// only the screen has) is decoration. Markdown is aligned so: every
// character of its logical text is on the screen, in order.
func alignFree(rows []string, text string) logical {
	lg := logical{text: text, marks: make([][]mark, len(rows)), kinds: make([]rowKind, len(rows))}
	p := 0
	for i, r := range rows {
		lg.marks[i], p = alignRow(ansi.Strip(r), 0, text, p)
		lg.kinds[i] = rowText
		if len(lg.marks[i]) == 0 {
			lg.kinds[i] = unmarkedKind(r)
		}
	}
	return lg
}

// alignRows is alignFree for an entry whose lines say where their text
// starts (info).
func alignRows(rows []string, info []rowInfo, text string) logical {
	lg := logical{text: text, marks: make([][]mark, len(rows)), kinds: make([]rowKind, len(rows))}
	starts := lineStarts(text)
	p := 0
	for i, r := range rows {
		in := rowInfo{}
		if i < len(info) {
			in = info[i]
		}
		lg.kinds[i] = in.kind
		if in.kind != rowText {
			continue
		}
		if in.line >= 0 && in.line < len(starts) {
			p = starts[in.line]
		}
		lg.marks[i], p = alignRow(ansi.Strip(r), in.col, text, p)
		if len(lg.marks[i]) == 0 {
			lg.kinds[i] = unmarkedKind(r)
		}
	}
	return lg
}

// unmarkedKind is how a line that shows none of the logical text is
// copied: as shown when it has a letter or a digit, else (blank, a rule, a
// lone bar) left out, a blank line staying blank.
func unmarkedKind(row string) rowKind {
	if strings.IndexFunc(ansi.Strip(row), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
		return rowShown
	}
	return rowChrome
}

// lineStarts returns the offset of each line of text.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// alignRow matches the visible characters of the plain row s from cell
// col on against text from p; it returns the marks and where text goes on.
func alignRow(s string, col int, text string, p int) ([]mark, int) {
	var marks []mark
	x := 0
	for s != "" {
		g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		s = s[len(g):]
		at := x
		x += w
		if at < col || isBlank(g) {
			continue
		}
		q := skipBlank(text, p)
		if strings.HasPrefix(text[q:], g) {
			marks = append(marks, mark{col: at, off: q, end: q + len(g)})
			p = q + len(g)
		}
	}
	return marks, p
}

func isBlank(g string) bool {
	r, _ := utf8.DecodeRuneInString(g)
	return unicode.IsSpace(r)
}

// skipBlank returns the offset of the first non-blank character of text
// at or after p.
func skipBlank(text string, p int) int {
	for p < len(text) {
		r, n := utf8.DecodeRuneInString(text[p:])
		if !unicode.IsSpace(r) {
			break
		}
		p += n
	}
	return p
}

// lineEnd and lineStart return the end and start of the logical line of
// text that holds offset p.
func lineEnd(text string, p int) int {
	if i := strings.IndexByte(text[p:], '\n'); i >= 0 {
		return p + i
	}
	return len(text)
}

func lineStart(text string, p int) int { return strings.LastIndexByte(text[:p], '\n') + 1 }

// logicalOf returns the lines of the part a points at and their logical
// text.
func (c *Model) logicalOf(a anchor) ([]string, logical) {
	e := c.entries[a.idx]
	lines := c.part(a.idx, a.part)
	if e.kind != entryAssistant {
		return lines, alignRows(lines, e.rows, e.logic)
	}
	switch n := e.md.Blocks(); {
	case a.part == 0 || !e.visible:
		return lines, alignFree(lines, "")
	case a.part <= n:
		return lines, alignFree(lines, e.md.LogicalBlock(a.part-1))
	default:
		return lines, alignFree(lines, e.md.LogicalTail())
	}
}

// Span is the columns [l, r) of row y of the pane that a selection
// covers; ok is false for a row outside it.
type Span func(y int) (l, r int, ok bool)

// copyRun is the logical text of the selected lines [y0, y1) of the last
// frame (shown), which all show one part of the chat, from line from.off on.
func (c *Model) copyRun(shown []string, span Span, y0, y1 int, from anchor) []string {
	if from.idx < 0 || from.idx >= len(c.entries) {
		return copyShown(shown, span, y0, y1)
	}
	lines, lg := c.logicalOf(from)
	for y := y0; y < y1; y++ {
		k := from.off + y - y0
		if k >= len(lines) || ansi.Strip(lines[k]) != ansi.Strip(shown[y]) {
			return copyShown(shown, span, y0, y1) // the part changed since the frame was drawn
		}
	}
	var cp textCopy
	cp.lg = lg
	for y := y0; y < y1; y++ {
		l, r, _ := span(y)
		k := from.off + y - y0
		switch lg.kinds[k] {
		case rowText:
			cp.row(k, l, r)
		case rowShown:
			cp.flush()
			cp.out = append(cp.out, shownCut(shown[y], l, r))
		default:
			if strings.TrimSpace(ansi.Strip(shown[y])) == "" {
				cp.blanks++
			}
		}
	}
	cp.flush()
	return cp.out
}

// copyShown copies lines [y0, y1) of the last frame as shown: lines that
// come from no entry are blank or the "more below" marker, which is left
// out.
func copyShown(shown []string, span Span, y0, y1 int) []string {
	var out []string
	for y := y0; y < y1; y++ {
		l, r, _ := span(y)
		out = append(out, shownCut(shown[y], l, r))
	}
	return out
}

// shownCut is the cells [l, r) of a rendered line, without styles or
// trailing blanks.
func shownCut(line string, l, r int) string {
	return strings.TrimRight(ansi.Strip(ansi.Cut(line, l, r)), " ")
}

// textCopy gathers the logical text of the selected lines of one part: a
// run of lines that show text is copied as one slice of it, from the first
// character selected to the last.
type textCopy struct {
	lg     logical
	out    []string
	on     bool // a run is open: from and to hold its ends
	from   int
	to     int
	blanks int // blank lines seen since the run's last text line
}

// row adds rendered line k, selected in cells [l, r), to the run.
func (cp *textCopy) row(k, l, r int) {
	marks := cp.lg.marks[k]
	text := cp.lg.text
	if !cp.on {
		i := 0
		for i < len(marks) && marks[i].col < l {
			i++
		}
		if i == len(marks) {
			return // selected after its last character: the run starts below
		}
		cp.flush() // the blank lines above it
		cp.on, cp.from, cp.to = true, marks[i].off, marks[i].off
		if i == 0 && cp.startsLine(k) {
			cp.from = lineStart(text, cp.from)
		}
	}
	cp.blanks = 0
	j := len(marks) - 1
	for j >= 0 && marks[j].col >= r {
		j--
	}
	if j < 0 {
		return
	}
	cp.to = max(cp.to, marks[j].end)
	if j == len(marks)-1 && cp.endsLine(k) {
		cp.to = max(cp.to, lineEnd(text, cp.to))
	}
}

// startsLine reports whether line k shows the start of its logical line
// (no line above shows any of it); endsLine whether it shows its end.
func (cp *textCopy) startsLine(k int) bool {
	first := cp.lg.marks[k][0].off
	for j := k - 1; j >= 0; j-- {
		if m := cp.lg.marks[j]; len(m) > 0 {
			return m[len(m)-1].end <= lineStart(cp.lg.text, first)
		}
	}
	return true
}

func (cp *textCopy) endsLine(k int) bool {
	marks := cp.lg.marks[k]
	last := marks[len(marks)-1].off
	for j := k + 1; j < len(cp.lg.marks); j++ {
		if m := cp.lg.marks[j]; len(m) > 0 {
			return m[0].off > lineEnd(cp.lg.text, last)
		}
	}
	return true
}

// flush ends the open run: its text, then the blank lines after it.
func (cp *textCopy) flush() {
	if cp.on && cp.to > cp.from {
		cp.out = append(cp.out, strings.Split(cp.lg.text[cp.from:cp.to], "\n")...)
	}
	for ; cp.blanks > 0; cp.blanks-- {
		cp.out = append(cp.out, "")
	}
	cp.on = false
}
