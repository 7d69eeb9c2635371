package dialog

import (
	"strconv"
	"strings"

	"github.com/tick-agent/tick/ui/style"
)

// detail is what an approval shows of its request below the title: the
// command, an edit's diff or the summary, wrapped to the box and scrolled
// within what the last view had room for.
type detail struct {
	lines []string // the detail's lines, sanitized
	diff  bool     // lines are a unified diff, drawn by style.DiffLines

	off   int // first wrapped line shown
	room  int // wrapped lines the last view had room for
	total int // wrapped lines in the last view

	wrapW    int        // width the wrapped lines are for
	wrapped  []wrapLine // lines wrapped at wrapW
	wrapDark bool       // the palette a diff's wrapped lines are drawn in
}

// wrapLine is one line of the wrapped detail and the source line's style.
type wrapLine struct {
	text   string
	src    string // the unwrapped line, for its diff style
	styled bool   // text is styled already (a line of style.DiffLines)
}

// scroll moves the detail by n wrapped lines, within what the last view
// showed.
func (d *detail) scroll(n int) {
	d.off = max(min(d.off+n, d.total-d.room), 0)
}

// page is how far a page key scrolls: the room less one line.
func (d *detail) page() int { return max(d.room-1, 1) }

// toTop and toBottom scroll to the first and the last wrapped lines.
func (d *detail) toTop()    { d.off = 0 }
func (d *detail) toBottom() { d.off = max(d.total-d.room, 0) }

// wrap returns the detail wrapped at w cells, computed once per width
// and palette (a diff is drawn in the palette's colours).
func (d *detail) wrap(st *style.Styles, w int) []wrapLine {
	if w == d.wrapW && st.Dark == d.wrapDark && d.wrapped != nil {
		return d.wrapped
	}
	d.wrapW, d.wrapDark, d.wrapped = w, st.Dark, d.wrapped[:0]
	if d.diff { // the chat's renderer: numbered, signed, coloured
		for _, l := range style.DiffLines(st, strings.Join(d.lines, "\n"), w) {
			d.wrapped = append(d.wrapped, wrapLine{text: l, styled: true})
		}
		return d.wrapped
	}
	for _, l := range d.lines {
		for _, piece := range style.WrapHard(l, w) {
			d.wrapped = append(d.wrapped, wrapLine{text: piece, src: l})
		}
	}
	return d.wrapped
}

// view returns the detail's lines for a box w cells wide with room lines
// left for it: a blank line first when there is room for one, the lines
// from the scroll offset, and a note saying it scrolls when not all fit.
// Nothing when there is no detail or no room.
func (d *detail) view(st *style.Styles, w, room int) []string {
	body := d.wrap(st, w)
	d.total = len(body)
	if len(body) == 0 || room < 1 {
		return nil
	}
	var lines []string
	if room >= 4 {
		lines = append(lines, "")
		room--
	}
	note := len(body) > room && room >= 2
	if note {
		room-- // the scroll note
	}
	d.room = room
	d.off = max(min(d.off, len(body)-room), 0)
	end := min(d.off+room, len(body))
	for _, l := range body[d.off:end] {
		if l.styled {
			lines = append(lines, l.text)
			continue
		}
		lines = append(lines, style.DiffStyle(st, l.src).Render(l.text))
	}
	if note {
		n := "scrolls: ↑/↓ pgup/pgdn · lines " + strconv.Itoa(d.off+1) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(len(body))
		lines = append(lines, st.DialogDesc.Render(style.TruncateWidth(n, w, st.Glyphs.Ellipsis)))
	}
	return lines
}
