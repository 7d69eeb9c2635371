package dialog

import (
	"github.com/tick-agent/tick/ui/style"
	"strconv"

	"strings"
	"unicode/utf8"
)

// maxFilter bounds the filter text of a model list.
const maxFilter = 200

// ModelList is a list of model names filtered as the user types: every
// word of the filter must occur in a name (case-insensitive). The setup
// screen and the /model picker use it.
type ModelList struct {
	all     []string // every model, as given
	current string   // the model in use, marked
	filter  string
	shown   []int // indexes into all that match the filter
	sel     int   // index into shown
	off     int   // first row shown, as of the last Follow
}

// NewModelList returns a list over models with current selected when it
// is among them.
func NewModelList(models []string, current string) *ModelList {
	l := &ModelList{all: models, current: current}
	l.refilter()
	for i, idx := range l.shown {
		if models[idx] == current {
			l.sel = i
		}
	}
	return l
}

// refilter recomputes the matches, keeping the selected name when it
// still matches.
func (l *ModelList) refilter() {
	prev := l.Selected()
	words := strings.Fields(strings.ToLower(l.filter))
	l.shown = l.shown[:0]
	for i, m := range l.all {
		lm := strings.ToLower(m)
		ok := true
		for _, w := range words {
			if !strings.Contains(lm, w) {
				ok = false
				break
			}
		}
		if ok {
			l.shown = append(l.shown, i)
		}
	}
	l.sel = 0
	for i, idx := range l.shown {
		if l.all[idx] == prev {
			l.sel = i
		}
	}
}

// Filter is the filter typed so far.
func (l *ModelList) Filter() string { return l.filter }

// ClearFilter empties the filter.
func (l *ModelList) ClearFilter() {
	l.filter = ""
	l.refilter()
}

// TypeText appends printable text to the filter.
func (l *ModelList) TypeText(s string) {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if s == "" || len(l.filter)+len(s) > maxFilter {
		return
	}
	l.filter += s
	l.refilter()
}

// Backspace removes the last character of the filter; false when it was
// already empty.
func (l *ModelList) Backspace() bool {
	if l.filter == "" {
		return false
	}
	_, n := utf8.DecodeLastRuneInString(l.filter)
	l.filter = l.filter[:len(l.filter)-n]
	l.refilter()
	return true
}

// Move moves the selection by n, staying inside the matches.
func (l *ModelList) Move(n int) {
	l.sel = max(min(l.sel+n, len(l.shown)-1), 0)
}

// Selected returns the selected model, "" when nothing matches.
func (l *ModelList) Selected() string {
	if l.sel < 0 || l.sel >= len(l.shown) {
		return ""
	}
	return l.all[l.shown[l.sel]]
}

// Offset is the first row shown, as of the last Follow.
func (l *ModelList) Offset() int { return l.off }

// Follow keeps the selection among rows rows shown, moving the first row
// shown as little as it can; call it in Update after the selection moved.
func (l *ModelList) Follow(rows int) { l.off = l.scrolled(rows) }

// scrolled is the first row to show for the selection to be among rows
// rows (at least one), moving the last offset as little as it can.
func (l *ModelList) scrolled(rows int) int {
	rows = max(rows, 1)
	off := l.off
	switch {
	case l.sel < off:
		off = l.sel
	case l.sel >= off+rows:
		off = l.sel - rows + 1
	}
	return max(min(off, len(l.shown)-rows), 0)
}

// Lines renders the filter line and up to rows models, each at most w
// cells wide, the selected one marked and the current one labelled. It
// changes nothing: rows shown start where Follow left them, moved only as
// far as the selection needs.
func (l *ModelList) Lines(st *style.Styles, w, rows int) []string {
	g := st.Glyphs
	out := []string{st.DialogDesc.Render("filter: ") + st.DialogText.Render(style.TruncateWidth(l.filter, max(w-9, 1), g.Ellipsis))}
	rows = max(rows, 1)
	off := l.scrolled(rows)
	if len(l.shown) == 0 {
		return append(out, st.DialogDesc.Render("no model matches"))
	}
	for i := off; i < min(off+rows, len(l.shown)); i++ {
		name := l.all[l.shown[i]]
		mark := "  "
		if i == l.sel {
			mark = g.UserPrompt
		}
		line := mark + style.OneLine(name) // a server names its models
		if name == l.current {
			line += " (current)"
		}
		line = style.TruncateWidth(line, w, g.Ellipsis)
		if i == l.sel {
			out = append(out, st.PickerSel.Render(line))
		} else {
			out = append(out, st.DialogText.Render(line))
		}
	}
	if n := len(l.shown); n > rows {
		out = append(out, st.DialogDesc.Render(strconv.Itoa(l.sel+1)+"/"+strconv.Itoa(n)))
	}
	return out
}
