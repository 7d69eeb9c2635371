package dialog

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/style"
)

// DiffFile is one file of a /diff: what happened to it (a checkpoint
// Change's kind: "created", "deleted", "changed") and its part of the
// unified diff.
type DiffFile struct {
	Kind, Path string
	Patch      string
}

// DiffData is what the /diff dialog shows, read-only: the point it starts
// from and the changed files. Title, when set, is the list's title
// instead of "Changes since Since" (a kept task's patch).
type DiffData struct {
	Since string
	Title string
	Files []DiffFile
}

// Diff is the /diff dialog: the files the session changed, one a row with
// its added and removed line counts; enter opens a file's hunks (drawn by
// style.DiffLines, scrollable), esc goes back to the list, esc again
// closes it. Every name and line is sanitised as it is drawn.
type Diff struct {
	keys  style.DiffKeyMap
	data  DiffData
	sel   int // the selected file
	open  int // the file whose hunks show; -1 for the list
	off   int // the first line shown
	room  int // lines the last view had room for
	total int // lines of the last view's body

	hunks      []string // the open file's hunks as drawn, hunksWidth cells wide
	hunksOf    int      // the file they are of; -1 for none
	hunksWidth int
	hunksDark  bool // the palette they are drawn in
}

// NewDiff returns the dialog for data, on its list.
func NewDiff(keys style.DiffKeyMap, data DiffData) *Diff {
	return &Diff{keys: keys, data: data, open: -1, hunksOf: -1}
}

// Layer puts it with the pickers.
func (d *Diff) Layer() int { return LayerPicker }

// Update moves over the list or scrolls the hunks; esc steps back.
func (d *Diff) Update(_ Context, msg tea.Msg) (Action, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, true
	}
	page := max(d.room-1, 1)
	switch {
	case key.Matches(k, d.keys.Back):
		if d.open < 0 {
			return Close{}, true
		}
		d.open, d.off = -1, 0
	case key.Matches(k, d.keys.Open):
		if d.open < 0 && len(d.data.Files) > 0 {
			d.open, d.off = d.sel, 0
		}
	case key.Matches(k, d.keys.Up):
		d.move(-1)
	case key.Matches(k, d.keys.Down):
		d.move(1)
	case key.Matches(k, d.keys.PageUp):
		d.move(-page)
	case key.Matches(k, d.keys.PageDown):
		d.move(page)
	}
	return nil, true
}

// move moves the selection (the list) or the view (the hunks) by n.
func (d *Diff) move(n int) {
	if d.open < 0 {
		d.sel = max(min(d.sel+n, len(d.data.Files)-1), 0)
		return
	}
	d.off = max(min(d.off+n, d.total-d.room), 0)
}

// View draws the list or the open file's hunks in a box w×h.
func (d *Diff) View(c Context, w, h int) []string {
	st := c.St
	iw := max(w-4, 1)
	title := "Changes since " + style.OneLine(d.data.Since)
	if d.data.Title != "" {
		title = style.OneLine(d.data.Title)
	}
	var body []string
	sel := -1
	if d.open < 0 {
		body, sel = d.list(st, iw), d.sel
	} else {
		f := d.data.Files[d.open]
		title = f.Kind + " " + style.OneLine(f.Path)
		body = d.drawnHunks(st, iw)
	}
	foot := style.FootLines(st, d.footKeys(), iw)
	d.room = max(h-2-2-len(foot), 1) // borders, title and the blank line above the keys
	d.total = len(body)
	if sel >= 0 { // keep the selection in view
		d.off = max(min(d.off, sel), sel-d.room+1)
	}
	d.off = max(min(d.off, d.total-d.room), 0)
	lines := []string{st.DialogTitle.Render(style.TruncateWidth(title, iw, st.Glyphs.Ellipsis))}
	lines = append(lines, body[d.off:min(d.off+d.room, len(body))]...)
	lines = append(lines, "")
	lines = append(lines, foot...)
	for i, l := range lines {
		l = style.TruncateWidth(l, iw, st.Glyphs.Ellipsis)
		lines[i] = l + strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
	}
	return strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
}

// drawnHunks is the open file's hunks drawn in iw cells, drawn again
// only when the file, the width or the palette changed (View runs on
// every frame while the dialog is open, a turn's stream included).
func (d *Diff) drawnHunks(st *style.Styles, iw int) []string {
	if d.hunksOf != d.open || d.hunksWidth != iw || d.hunksDark != st.Dark {
		d.hunks = style.DiffLines(st, hunksOf(d.data.Files[d.open].Patch), iw)
		d.hunksOf, d.hunksWidth, d.hunksDark = d.open, iw, st.Dark
	}
	return d.hunks
}

// list is the files, one a row: the kind, the path, +added −removed.
func (d *Diff) list(st *style.Styles, iw int) []string {
	if len(d.data.Files) == 0 {
		return []string{st.DialogDesc.Render("no file changed")}
	}
	out := make([]string, 0, len(d.data.Files))
	for i, f := range d.data.Files {
		add, del := countLines(f.Patch)
		mark, s := "  ", st.DialogText
		if i == d.sel {
			mark, s = st.Glyphs.Selected+" ", st.DialogTitle
		}
		row := s.Render(mark+f.Kind+"  "+style.TruncateWidth(style.OneLine(f.Path), max(iw-30, 8), st.Glyphs.Ellipsis)) +
			"  " + st.DiffAdd.Render(st.Glyphs.Added+strconv.Itoa(add)) + " " + st.DiffDel.Render(st.Glyphs.Removed+strconv.Itoa(del))
		out = append(out, row)
	}
	return out
}

// footKeys are the keys the foot names.
func (d *Diff) footKeys() [][2]string {
	h := func(b key.Binding) [2]string { return [2]string{b.Help().Key, b.Help().Desc} }
	k := d.keys
	if d.open < 0 {
		return [][2]string{{k.Up.Help().Key + "/" + k.Down.Help().Key, "select"}, h(k.Open), {k.Back.Help().Key, "close"}}
	}
	return [][2]string{{k.Up.Help().Key + "/" + k.Down.Help().Key + " " + k.PageUp.Help().Key + "/" + k.PageDown.Help().Key, "scroll"}, {k.Back.Help().Key, "back to the files"}}
}

// hunksOf is a file's patch from its "---" header on (git's "diff --git"
// and "index" lines left out), for style.DiffLines.
func hunksOf(patch string) string {
	if i := strings.Index(patch, "\n--- "); i >= 0 && !strings.HasPrefix(patch, "--- ") {
		return patch[i+1:]
	}
	return patch
}

// countLines counts the added and removed lines of a file's patch.
func countLines(patch string) (add, del int) {
	in := false
	for _, l := range strings.Split(patch, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			in = true
		case !in:
		case strings.HasPrefix(l, "+"):
			add++
		case strings.HasPrefix(l, "-"):
			del++
		}
	}
	return add, del
}

// SplitPatch cuts a multi-file unified diff (git's, each file from its
// "diff --git" line) into the patch of each file, by path as git names
// it (the b/ side, or the a/ side for a deleted file).
func SplitPatch(patch string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split("\n"+patch, "\ndiff --git ")[1:] {
		first, _, _ := strings.Cut(part, "\n")
		path := ""
		if i := strings.LastIndex(first, " b/"); i >= 0 {
			path = first[i+3:]
		}
		out[path] = "diff --git " + part + "\n"
	}
	return out
}
