package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/todo"
)

// panel is the todo panel (DESIGN.md "The panel"). It opens on a todo
// update, shows the goal, done/total and every item (the running one with
// its active form, a spinner and its elapsed time), collapses to one
// summary line when the turn ends, and is toggled by hand with ctrl+t. It
// remembers for each item how long it ran and how many tool calls were made
// while it was in progress.
type panel struct {
	st       *Styles
	list     todo.List
	expanded bool
	byHand   bool // the user toggled it during this turn: updates keep it as it is
	running  bool // a turn is running: the in-progress item's clock runs
	stats    map[string]*itemStats
	now      time.Time
}

// itemStats is what the panel remembers of one item.
type itemStats struct {
	text  string        // the item's text when the stats began
	ran   time.Duration // time spent in progress, not counting the current run
	since time.Time     // start of the current run; zero when not running
	calls int           // tool calls made while it was in progress
}

// Panel geometry.
const (
	panelMinWidth  = 34
	panelMaxWidth  = 52
	panelWideFrom  = 120 // terminal width from which the panel sits at the right
	panelNarrowMax = 12  // most lines of the panel above the input
)

func newPanel(st *Styles) *panel {
	return &panel{st: st, stats: map[string]*itemStats{}}
}

// restore shows a list from a resumed session, collapsed.
func (p *panel) restore(l todo.List) {
	p.list = l.Clone()
	p.expanded = false
	p.stats = map[string]*itemStats{}
}

// visible reports whether the panel shows anything at all.
func (p *panel) visible() bool { return !p.list.Empty() }

// open reports whether the panel is expanded.
func (p *panel) open() bool { return p.visible() && p.expanded }

// update takes a new list from a todo call.
func (p *panel) update(l todo.List, now time.Time) {
	p.now = now
	p.list = l.Clone()
	if !p.byHand {
		p.expanded = true
	}
	seen := make(map[string]bool, len(l.Items))
	for _, it := range l.Items {
		seen[it.ID] = true
		s := p.stats[it.ID]
		if s == nil || s.text != it.Text {
			s = &itemStats{text: it.Text}
			p.stats[it.ID] = s
		}
		switch {
		case it.Status == todo.InProgress && s.since.IsZero() && p.running:
			s.since = now
		case it.Status != todo.InProgress && !s.since.IsZero():
			s.ran += now.Sub(s.since)
			s.since = time.Time{}
		}
	}
	for id := range p.stats {
		if !seen[id] {
			delete(p.stats, id)
		}
	}
}

// toolCall counts a tool call toward the item in progress.
func (p *panel) toolCall() {
	if it, ok := p.list.Current(); ok {
		if s := p.stats[it.ID]; s != nil {
			s.calls++
		}
	}
}

// turnStart resumes the clock of the item in progress.
func (p *panel) turnStart(now time.Time) {
	p.now, p.running, p.byHand = now, true, false
	if it, ok := p.list.Current(); ok {
		s := p.stats[it.ID]
		if s == nil {
			s = &itemStats{text: it.Text}
			p.stats[it.ID] = s
		}
		s.since = now
	}
}

// turnEnd stops the clocks and collapses the panel.
func (p *panel) turnEnd(now time.Time) {
	p.now, p.running = now, false
	for _, s := range p.stats {
		if !s.since.IsZero() {
			s.ran += now.Sub(s.since)
			s.since = time.Time{}
		}
	}
	p.expanded = false
	p.byHand = false
}

// toggle expands or collapses the panel by hand.
func (p *panel) toggle() {
	if !p.visible() {
		return
	}
	p.expanded = !p.expanded
	p.byHand = true
}

// elapsed returns how long the item has been in progress in total.
func (p *panel) elapsed(id string) (time.Duration, int) {
	s := p.stats[id]
	if s == nil {
		return 0, 0
	}
	d := s.ran
	if !s.since.IsZero() && p.now.After(s.since) {
		d += p.now.Sub(s.since)
	}
	return d, s.calls
}

// summary is the collapsed panel: "Plan 3/5 · next: Write tests".
func (p *panel) summary(w int) string {
	g := p.st.Glyphs
	done, total := p.list.Counts()
	s := fmt.Sprintf("%s Plan %d/%d", g.Plan, done, total)
	if it, ok := p.list.Next(); ok {
		s += g.Separator + "next: " + it.Text
	} else {
		s += g.Separator + "all done"
	}
	hint := g.Separator + "ctrl+t"
	line := ansi.Truncate(s, max(w-ansi.StringWidth(hint), 1), g.Ellipsis)
	if ansi.StringWidth(line)+ansi.StringWidth(hint) <= w {
		return p.st.PanelSummary.Render(line) + p.st.ItemMeta.Render(hint)
	}
	return p.st.PanelSummary.Render(ansi.Truncate(s, w, g.Ellipsis))
}

// panelLine is one line of the expanded panel; item is the index of the
// item it belongs to, or -1 for the header.
type panelLine struct {
	text string
	item int
	note bool
}

// view returns the expanded panel in at most h lines of width w. spin is
// the spinner's current frame for the running item.
func (p *panel) view(w, h int, spin string) []string {
	if h <= 0 || w <= 0 {
		return nil
	}
	st, g := p.st, p.st.Glyphs
	done, total := p.list.Counts()
	title := p.list.Goal
	if title == "" {
		title = "Plan"
	}
	count := fmt.Sprintf(" %d/%d", done, total)
	lines := []panelLine{{item: -1, text: st.PanelTitle.Render(ansi.Truncate(title, max(w-len(count), 1), g.Ellipsis)) + st.PanelCount.Render(count)}}
	running := -1
	for i, it := range p.list.Items {
		if it.Status == todo.InProgress {
			running = i
		}
		lines = append(lines, p.itemLines(it, i, w, spin)...)
	}
	if len(lines) > h {
		lines = dropNotes(lines)
	}
	if len(lines) > h {
		lines = window(lines, h, running, g.Ellipsis, st.ItemMeta.Render)
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.text
	}
	return out
}

// itemLines renders one item: glyph, text, meta; a note line under a
// completed item.
func (p *panel) itemLines(it todo.Item, i, w int, spin string) []panelLine {
	st, g := p.st, p.st.Glyphs
	d, calls := p.elapsed(it.ID)
	var meta string
	if d > 0 || calls > 0 {
		var parts []string
		if d > 0 {
			parts = append(parts, formatDuration(d))
		}
		if calls > 0 {
			parts = append(parts, plural(calls, "call"))
		}
		meta = " " + strings.Join(parts, g.Separator)
	}
	var glyph, text string
	var style = st.ItemPending
	switch it.Status {
	case todo.InProgress:
		glyph, style, text = spin, st.ItemRunning, it.ActiveForm
		if text == "" {
			text = it.Text
		}
		if !p.running {
			glyph = g.ToolRunning
		}
	case todo.Completed:
		glyph, style, text = g.ItemDone, st.ItemDone, it.Text
	case todo.Cancelled:
		glyph, style, text = g.ItemCanceled, st.ItemCancelled, it.Text
	default:
		glyph, text = g.ItemPending, it.Text
	}
	if glyph == "" {
		glyph = g.ToolRunning
	}
	glyphStyle := style
	if it.Status == todo.Cancelled {
		glyphStyle = st.ItemNote
	}
	head := glyphStyle.Render(glyph) + " "
	room := w - 3 - ansi.StringWidth(meta) // glyph, space, and a space before meta
	if room < 8 {                          // too narrow for meta
		meta, room = "", w-2
	}
	body := ansi.Truncate(text, max(room, 1), g.Ellipsis)
	line := head + style.Render(body)
	if it.Status == todo.Cancelled && it.Note != "" {
		rest := room - ansi.StringWidth(body) - 3
		if rest > 4 {
			line += st.ItemNote.Render(" (" + ansi.Truncate(it.Note, rest, g.Ellipsis) + ")")
		}
	}
	if meta != "" {
		pad := w - ansi.StringWidth(line) - ansi.StringWidth(meta)
		line += strings.Repeat(" ", max(pad, 1)) + st.ItemMeta.Render(meta)
	}
	out := []panelLine{{text: line, item: i}}
	if it.Status == todo.Completed && it.Note != "" {
		out = append(out, panelLine{text: "  " + st.ItemNote.Render(ansi.Truncate(it.Note, max(w-2, 1), g.Ellipsis)), item: i, note: true})
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

// countItems counts the items (not their note lines) among lines.
func countItems(lines []panelLine) int {
	n := 0
	for _, l := range lines {
		if !l.note {
			n++
		}
	}
	return n
}
