package panel

import (
	"github.com/tick-agent/tick/ui/style"

	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/todo"
)

// The expanded panel is drawn in the roomiest of three forms that fits its
// height: full (item text wrapped onto more lines instead of being cut,
// notes under their items, an item's elapsed time and tool calls on the
// line where they fit), compact (one line per item, text cut to leave room
// for the elapsed time, a note line under completed items), and compact
// without notes; a list still too long shows a window around the running
// item.

// Limits of the full form.
const (
	panelTextLines = 3  // most lines of an item's text
	panelNoteLines = 2  // most lines of a note
	panelMinText   = 12 // narrower than this, items are drawn compact
)

// panelLine is one line of the expanded panel; item is the index of the
// item it belongs to, or -1 for the header. note marks a line that may be
// left out (a note, or elapsed time on a line of its own) and cont a
// further line of an item's text.
type panelLine struct {
	text string
	item int
	note bool
	cont bool
}

// LineCount is the number of lines of the expanded panel in the full form
// at width w, before fitting it to a height. It styles nothing: layout
// calls it on every update.
func (p *Model) LineCount(w int) int {
	title, count := p.title()
	full := w-2 >= panelMinText
	n := 1
	if heads, ok := titleRows(title, count, w); full && ok {
		n = len(heads)
	}
	n += p.extraLines(w)
	w -= p.gutterWidth()
	full = w-2 >= panelMinText
	for _, it := range p.list.Items {
		_, _, _, text := p.itemLook(it, "")
		rows, ok := p.fullRows(it, text, p.meta(it.ID), w)
		switch {
		case full && ok:
			n += len(rows)
		case it.Status == todo.Completed && it.Note != "":
			n += 2
		default:
			n++
		}
	}
	return n
}

// title returns the header's title (the goal, or "Plan") and its count
// (" 2/5").
func (p *Model) title() (title, count string) {
	done, total := p.list.Counts()
	title = style.OneLine(p.list.Goal)
	if title == "" {
		title = "Plan"
	}
	return title, fmt.Sprintf(" %d/%d", done, total)
}

// titleRows wraps the header, title then count, to w cells for the full
// form; ok is false when it takes more than panelTextLines lines.
func titleRows(title, count string, w int) (rows []string, ok bool) {
	rows = wrapLines(title+count, w)
	last := len(rows) - 1
	return rows, last >= 0 && len(rows) <= panelTextLines && strings.HasSuffix(rows[last], strings.TrimSpace(count))
}

// View returns the expanded panel in at most h lines of width w. spin is
// the spinner's current frame for the running item.
func (p *Model) View(w, h int, spin string) []string {
	if h <= 0 || w <= 0 {
		return nil
	}
	foot := p.footLines(w)
	if p.verify != "" {
		foot = append([]string{p.st.ItemMeta.Render(style.TruncateWidth(p.verify, w, p.st.Glyphs.Ellipsis))}, foot...)
	}
	if len(foot) >= h {
		return foot[:h]
	}
	h -= len(foot)
	lines := p.lines(w, spin, true)
	if len(lines) > h {
		lines = p.lines(w, spin, false)
	}
	if len(lines) > h {
		lines = dropNotes(lines)
	}
	if len(lines) > h {
		lines = window(lines, h, p.RunningIndex(), p.st.Glyphs.Ellipsis, p.st.ItemMeta.Render)
	}
	out := make([]string, len(lines), len(lines)+len(foot))
	for i, l := range lines {
		out[i] = l.text
	}
	return append(out, foot...)
}

// RunningIndex returns the index of the item in progress, or -1.
func (p *Model) RunningIndex() int {
	for i, it := range p.list.Items {
		if it.Status == todo.InProgress {
			return i
		}
	}
	return -1
}

// lines renders the header and every item at width w, in the full form or
// the compact one.
func (p *Model) lines(w int, spin string, full bool) []panelLine {
	st, g := p.st, p.st.Glyphs
	title, count := p.title()
	room := max(w-len(count), 1)
	var lines []panelLine
	if full && w-2 >= panelMinText {
		if heads, ok := titleRows(title, count, w); ok {
			c := strings.TrimSpace(count)
			last := len(heads) - 1
			for i, l := range heads {
				text := st.PanelTitle.Render(l)
				if i == last {
					t := strings.TrimRight(strings.TrimSuffix(l, c), " ")
					text = st.PanelCount.Render(c)
					if t != "" {
						text = st.PanelTitle.Render(t) + st.PanelCount.Render(" "+c)
					}
				}
				lines = append(lines, panelLine{text: text, item: -1, cont: i > 0})
			}
		}
	}
	if len(lines) == 0 {
		lines = append(lines, panelLine{item: -1, text: st.PanelTitle.Render(style.TruncateWidth(title, room, g.Ellipsis)) + st.PanelCount.Render(count)})
	}
	iw := w - p.gutterWidth()
	for i, it := range p.list.Items {
		var ls []panelLine
		if full && iw-2 >= panelMinText {
			ls = p.fullLines(it, i, iw, spin)
		} else {
			ls = p.itemLines(it, i, iw, spin)
		}
		lines = append(lines, p.decorate(it, i, iw, ls, spin)...)
	}
	return append(lines, p.removedLines(w)...)
}

// itemLook returns how an item is drawn: its glyph, the glyph's style, the
// text's style, and the text (the active form for the item in progress).
func (p *Model) itemLook(it todo.Item, spin string) (glyph string, glyphStyle, look lipgloss.Style, text string) {
	st, g := p.st, p.st.Glyphs
	look = st.ItemPending
	switch {
	case it.Status == todo.InProgress && it.ID == p.waiting: // not started: held at a gate
		glyph, text = g.ItemPending, it.Text
	case it.Status == todo.InProgress:
		glyph, look, text = spin, st.ItemRunning, it.ActiveForm
		if text == "" {
			text = it.Text
		}
		if !p.running || p.tasksFinished(it.ID) {
			glyph = g.ToolRunning // nothing works on it now
		}
	case it.Status == todo.Completed:
		glyph, look, text = g.ItemDone, st.ItemDone, it.Text
	case it.Status == todo.Cancelled:
		glyph, look, text = g.ItemCanceled, st.ItemCancelled, it.Text
	default:
		glyph, text = g.ItemPending, it.Text
	}
	if glyph == "" {
		glyph = g.ToolRunning
	}
	glyphStyle = look
	if it.Status == todo.Cancelled {
		glyphStyle = st.ItemNote
	}
	return glyph, glyphStyle, look, style.OneLine(text)
}

// meta is the item's elapsed time and tool calls ("1.8s · 2 calls"), or "".
func (p *Model) meta(id string) string {
	d, calls := p.elapsed(id)
	var parts []string
	if d > 0 {
		parts = append(parts, style.Duration(d))
	}
	if calls > 0 {
		parts = append(parts, style.Plural(calls, "call"))
	}
	return strings.Join(parts, p.st.Glyphs.Separator)
}

// panelRow is a line of an item in the full form before it is drawn: its
// text (a note line's in the note style), an optional note in the note
// style after it, and whether the item's meta goes at its right end.
type panelRow struct {
	text, after string
	note, meta  bool
}

// fullRows lays one item out in the full form at width w: the text
// wrapped under its glyph, the note under it (a cancelled item's reason
// after its text when it fits), and the meta right-aligned on the first
// line where it fits, else on a line of its own. ok is false when w is too
// narrow for the meta: the item is then drawn compact.
func (p *Model) fullRows(it todo.Item, text, meta string, w int) (rows []panelRow, ok bool) {
	g := p.st.Glyphs
	tw, mw := w-2, ansi.StringWidth(meta)
	if mw >= tw {
		return nil, false
	}
	for _, l := range capLines(wrapLines(text, tw), panelTextLines, tw, g.Ellipsis) {
		rows = append(rows, panelRow{text: l})
	}
	if len(rows) == 0 {
		rows = []panelRow{{}}
	}
	if note := style.OneLine(it.Note); note != "" && (it.Status == todo.Completed || it.Status == todo.Cancelled) {
		if it.Status == todo.Cancelled {
			note = "(" + note + ")"
		}
		last := &rows[len(rows)-1]
		if it.Status == todo.Cancelled && ansi.StringWidth(last.text)+1+ansi.StringWidth(note) <= tw {
			last.after = " " + note
		} else {
			for _, l := range capLines(wrapLines(note, tw), panelNoteLines, tw, g.Ellipsis) {
				rows = append(rows, panelRow{text: l, note: true})
			}
		}
	}
	if meta != "" {
		fits := func(r panelRow) bool {
			return ansi.StringWidth(r.text)+ansi.StringWidth(r.after)+1+mw <= tw
		}
		switch {
		case fits(rows[0]) && (len(rows) == 1 || rows[1].note):
			rows[0].meta = true
		case fits(rows[len(rows)-1]):
			rows[len(rows)-1].meta = true
		default:
			rows = append(rows, panelRow{note: it.Status != todo.InProgress, meta: true})
		}
	}
	return rows, true
}

// fullLines renders one item in the full form (see fullRows).
func (p *Model) fullLines(it todo.Item, i, w int, spin string) []panelLine {
	st := p.st
	glyph, glyphStyle, look, text := p.itemLook(it, spin)
	meta := p.meta(it.ID)
	rows, ok := p.fullRows(it, text, meta, w)
	if !ok {
		return p.itemLines(it, i, w, spin)
	}
	mw := ansi.StringWidth(meta)
	out := make([]panelLine, len(rows))
	for j, r := range rows {
		line := "  "
		if j == 0 {
			line = glyphStyle.Render(glyph) + " "
		}
		switch {
		case r.text != "" && r.note:
			line += st.ItemNote.Render(r.text)
		case r.text != "":
			line += look.Render(r.text)
		}
		if r.after != "" {
			line += st.ItemNote.Render(r.after)
		}
		if r.meta {
			pad := w - ansi.StringWidth(line) - mw
			line += strings.Repeat(" ", max(pad, 1)) + st.ItemMeta.Render(meta)
		}
		out[j] = panelLine{text: line, item: i, note: r.note, cont: j > 0 && !r.note}
	}
	return out
}

// wrapLines wraps the one-line text s to w cells, without the spaces at
// the ends of the lines.
func wrapLines(s string, w int) []string {
	lines := style.WrapText(s, w)
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return lines
}

// capLines keeps at most n of lines, marking a cut with ellipsis at the end
// of the last one kept, which stays within w cells.
func capLines(lines []string, n, w int, ellipsis string) []string {
	if len(lines) <= n {
		return lines
	}
	lines = lines[:n]
	last := lines[n-1]
	ew := ansi.StringWidth(ellipsis)
	if ansi.StringWidth(last)+ew > w {
		last = strings.TrimRight(style.TruncateWidth(last, max(w-ew, 0), ""), " ")
	}
	lines[n-1] = last + ellipsis
	return lines
}

// itemLines renders one item in the compact form: glyph, text cut to fit,
// meta; a note line under a completed item.
func (p *Model) itemLines(it todo.Item, i, w int, spin string) []panelLine {
	st, g := p.st, p.st.Glyphs
	glyph, glyphStyle, look, text := p.itemLook(it, spin)
	meta := p.meta(it.ID)
	if meta != "" {
		meta = " " + meta
	}
	head := glyphStyle.Render(glyph) + " "
	room := w - 3 - ansi.StringWidth(meta) // glyph, space, and a space before meta
	if room < 8 {                          // too narrow for meta
		meta, room = "", w-2
	}
	body := style.TruncateWidth(text, max(room, 1), g.Ellipsis)
	line := head + look.Render(body)
	if it.Status == todo.Cancelled && it.Note != "" {
		rest := room - ansi.StringWidth(body) - 3
		if rest > 4 {
			line += st.ItemNote.Render(" (" + style.TruncateWidth(style.OneLine(it.Note), rest, g.Ellipsis) + ")")
		}
	}
	if meta != "" {
		pad := w - ansi.StringWidth(line) - ansi.StringWidth(meta)
		line += strings.Repeat(" ", max(pad, 1)) + st.ItemMeta.Render(meta)
	}
	out := []panelLine{{text: line, item: i}}
	if it.Status == todo.Completed && it.Note != "" {
		out = append(out, panelLine{text: "  " + st.ItemNote.Render(style.TruncateWidth(style.OneLine(it.Note), max(w-2, 1), g.Ellipsis)), item: i, note: true})
	}
	return out
}

// dropNotes removes the note lines.
func dropNotes(lines []panelLine) []panelLine {
	out := lines[:0:0]
	for _, l := range lines {
		if !l.note {
			out = append(out, l)
		}
	}
	return out
}

// window keeps the header and h-1 lines of items around the running one,
// with a marker saying how many items are left out above and below.
func window(lines []panelLine, h, running int, ellipsis string, dim func(...string) string) []panelLine {
	items, keep := lines[1:], h-1
	if len(items) <= keep {
		return lines
	}
	if keep < 3 {
		return lines[:h]
	}
	focus := 0
	for i, l := range items {
		if l.item == running {
			focus = i
			break
		}
	}
	var s, e int
	switch {
	case focus < keep-1:
		s, e = 0, keep-1
	case focus >= len(items)-keep+1:
		s, e = len(items)-keep+1, len(items)
	default:
		n := keep - 2
		s = min(max(focus-n/2, 1), len(items)-n-1)
		e = s + n
	}
	out := append(make([]panelLine, 0, h), lines[0])
	if s > 0 {
		out = append(out, panelLine{text: dim(fmt.Sprintf("  %s %d above", ellipsis, countItems(items[:s]))), item: -1})
	}
	out = append(out, items[s:e]...)
	if e < len(items) {
		out = append(out, panelLine{text: dim(fmt.Sprintf("  %s %d more", ellipsis, countItems(items[e:]))), item: -1})
	}
	return out
}

// countItems counts the items (not their note or continuation lines) among
// lines.
func countItems(lines []panelLine) int {
	n := 0
	for _, l := range lines {
		if !l.note && !l.cont {
			n++
		}
	}
	return n
}
