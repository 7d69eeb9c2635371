package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/style"
)

// maxDiffLines bounds the lines an item's diff keeps (the rest is said to
// be cut), and maxDiffLine the bytes of one (a minified file's).
const (
	maxDiffLines = 5000
	maxDiffLine  = 1000
)

// ItemDiff is the read-only view of what one item of the plan changed
// (the plan editor's enter opens it): the files, then their diff from the
// item's undo point to the next, scrolled with the chat's keys; esc goes
// back to the plan editor below. The diff comes from the workspace, so
// every line is sanitised.
type ItemDiff struct {
	title string
	lines []string // styled, sanitised, not wrapped
	top   int      // first line shown
	rows  int      // lines shown at the last view (for paging)
}

// NewItemDiff lays out ch for the view, styled with st.
func NewItemDiff(st *style.Styles, ch agent.ItemChanges) *ItemDiff {
	d := &ItemDiff{title: style.OneLine("#" + ch.Item + " " + ch.Text + " · what it changed")}
	if len(ch.Files) == 0 {
		d.lines = append(d.lines, st.DialogDesc.Render("no file changed under this item"))
		return d
	}
	d.lines = append(d.lines, st.DialogText.Render(style.Plural(len(ch.Files), "file")+":"))
	for _, c := range ch.Files {
		d.lines = append(d.lines, st.DialogText.Render("  "+string(c.Kind)+"  "+style.TermText(c.Path)))
	}
	d.lines = append(d.lines, "")
	patch := strings.Split(strings.TrimRight(ch.Patch, "\n"), "\n")
	for i, l := range patch {
		if i == maxDiffLines {
			d.lines = append(d.lines, st.DialogDesc.Render(fmt.Sprintf("%s %d more lines not shown", st.Glyphs.Ellipsis, len(patch)-i)))
			break
		}
		if len(l) > maxDiffLine {
			l = strings.ToValidUTF8(l[:maxDiffLine], "") + " " + st.Glyphs.Ellipsis
		}
		d.lines = append(d.lines, diffLineStyle(st, l).Render(style.Sanitize(l)))
	}
	return d
}

// diffLineStyle colours a line of a unified diff: as the approval
// dialog's diffs (style.DiffStyle), with the file headers as titles.
func diffLineStyle(st *style.Styles, l string) lipgloss.Style {
	if strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "diff ") {
		return st.DialogTitle
	}
	return style.DiffStyle(st, l)
}

// Layer puts the view above the plan editor that opened it.
func (d *ItemDiff) Layer() int { return LayerEditor }

// Update scrolls with the chat's keys and closes on esc; it takes every
// key and paste, so nothing reaches the editor below while it is open.
func (d *ItemDiff) Update(c Context, msg tea.Msg) (Action, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return d.key(c.Keys, msg), true
	case tea.PasteMsg:
		return nil, true
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			d.scroll(-style.ScrollStep)
		} else if msg.Button == tea.MouseWheelDown {
			d.scroll(style.ScrollStep)
		}
		return nil, true
	}
	return nil, false
}

// key handles one key.
func (d *ItemDiff) key(keys style.KeyMap, k tea.KeyPressMsg) Action {
	page := max(d.rows-1, 1)
	switch {
	case key.Matches(k, keys.Rewind.Back):
		return Close{}
	case key.Matches(k, keys.SelectPrev):
		d.scroll(-1)
	case key.Matches(k, keys.SelectNext):
		d.scroll(1)
	case key.Matches(k, keys.PageUp):
		d.scroll(-page)
	case key.Matches(k, keys.PageDown):
		d.scroll(page)
	case key.Matches(k, keys.Top):
		d.top = 0
	case key.Matches(k, keys.Bottom):
		d.scroll(len(d.lines))
	}
	return nil
}

// scroll moves the view by n lines, within the diff.
func (d *ItemDiff) scroll(n int) {
	d.top = min(max(d.top+n, 0), max(len(d.lines)-max(d.rows, 1), 0))
}

// View draws the diff in the whole area, lines cut at its width.
func (d *ItemDiff) View(c Context, w, h int) []string {
	st, k := c.St, c.Keys
	iw := max(w-4, 10)
	d.rows = max(h-5, 1)
	d.top = min(d.top, max(len(d.lines)-d.rows, 0))
	out := []string{st.DialogTitle.Render(style.TruncateWidth(d.title, iw, st.Glyphs.Ellipsis))}
	end := min(d.top+d.rows, len(d.lines))
	for _, l := range d.lines[d.top:end] {
		out = append(out, style.TruncateWidth(l, iw, st.Glyphs.Ellipsis))
	}
	pos := ""
	if len(d.lines) > d.rows {
		pos = fmt.Sprintf("   lines %d–%d of %d", d.top+1, end, len(d.lines))
	}
	out = append(out, style.HelpLine(st, key.NewBinding(key.WithHelp(k.SelectPrev.Help().Key+" "+k.SelectNext.Help().Key, "scroll")),
		key.NewBinding(key.WithHelp(k.PageUp.Help().Key+" "+k.PageDown.Help().Key, "page")), k.Rewind.Back)+st.DialogDesc.Render(pos))
	return strings.Split(st.DialogBox.Render(strings.Join(out, "\n")), "\n")
}
