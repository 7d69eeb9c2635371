package dialog

import (
	"github.com/tick-agent/tick/ui/style"
	"strconv"

	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Help is the help overlay: every key and every slash command, in a
// box centred over the area above the input. Only its body scrolls: the
// title and the footer, which says how to close it and, when it scrolls,
// where the view is, stay on screen.
type Help struct {
	keys  style.HelpKeyMap
	off   int // the first body line shown
	room  int // body lines the last view had room for
	total int // body lines of the last view
}

// NewHelp returns the help overlay with its keys, at its top.
func NewHelp(keys style.HelpKeyMap) *Help { return &Help{keys: keys} }

// key handles a key. It reports whether the overlay closes: every key
// but the scroll keys closes it.
func (h *Help) key(k tea.KeyPressMsg) (closed bool) {
	page := max(h.room-1, 1)
	switch {
	case key.Matches(k, h.keys.Close):
		return true
	case key.Matches(k, h.keys.Up):
		h.scroll(-1)
	case key.Matches(k, h.keys.Down):
		h.scroll(1)
	case key.Matches(k, h.keys.PageUp):
		h.scroll(-page)
	case key.Matches(k, h.keys.PageDown):
		h.scroll(page)
	case key.Matches(k, h.keys.Top):
		h.off = 0
	case key.Matches(k, h.keys.Bottom):
		h.off = helpEnd // the view stops it at the last page
	default:
		return true
	}
	return false
}

// helpEnd is an offset past any body's end.
const helpEnd = 1 << 30

// scroll moves the body by n lines, within what the last view showed
// (before the first view, the view stops it).
func (h *Help) scroll(n int) {
	h.off = max(h.off+n, 0)
	if h.total > 0 {
		h.off = min(h.off, max(h.total-h.room, 0))
	}
}

// scrolls reports whether the last view was too short for the body.
func (h *Help) scrolls() bool { return h.total > h.room }

// box renders the overlay centred in a w×ht area. settings, when not
// empty, names the config file at the end of the body.
func (h *Help) Box(st *style.Styles, keys style.KeyMap, commands []Command, settings string, w, ht int) string {
	iw := max(min(w-4, style.DialogMaxWidth), 1) // border and padding take 4 columns
	// The footer's lines are counted with the widest position text, so
	// that scrolling never changes the room.
	probe := h.foot(st, iw, true, 0, 0, 999)
	room := ht - 2 - 1 - len(probe) // borders, title
	gaps := room >= 8               // blank lines after the title and before the footer
	if gaps {
		room -= 2
	}
	body := helpBody(st, keys, commands, settings, iw, max(room, 0))
	h.room, h.total = max(room, 0), len(body)
	h.off = max(min(h.off, h.total-h.room), 0)
	end := min(h.off+h.room, len(body))
	shown := body[h.off:end]
	foot := h.foot(st, iw, h.scrolls(), h.off+1, end, len(body))
	widest := foot
	if h.scrolls() {
		widest = h.foot(st, iw, true, 0, 0, len(body))
	}

	cw := ansi.StringWidth("Keys") // the box fits its content, the same width at every offset
	for _, part := range [][]string{body, widest} {
		for _, l := range part {
			cw = max(cw, min(ansi.StringWidth(l), iw))
		}
	}
	lines := []string{st.DialogTitle.Render("Keys")}
	if gaps {
		lines = append(lines, "")
	}
	lines = append(lines, shown...)
	if gaps {
		lines = append(lines, "")
	}
	lines = append(lines, foot...)
	for i, l := range lines {
		l = style.TruncateWidth(l, cw, st.Glyphs.Ellipsis)
		lines[i] = l + strings.Repeat(" ", max(cw-ansi.StringWidth(l), 0))
	}
	box := st.DialogBox.Render(strings.Join(lines, "\n"))
	return lipgloss.Place(w, ht, lipgloss.Center, lipgloss.Center, box)
}

// foot returns the footer's lines. While the body scrolls it says where
// the view is (lines from–to of total, with an arrow towards the rest),
// the scroll keys and the close key; otherwise that any key closes. With
// from 0 it is the widest footer for a body of total lines, for measuring.
func (h *Help) foot(st *style.Styles, iw int, scrolls bool, from, to, total int) []string {
	if !scrolls {
		return []string{st.DialogDesc.Render(style.TruncateWidth("any key closes this help", iw, st.Glyphs.Ellipsis))}
	}
	n := strconv.Itoa(total)
	arrow, pos := "↑↓", "more · lines "+n+"–"+n+" of "+n
	if from > 0 {
		switch {
		case from == 1:
			arrow = h.keys.Down.Help().Key
		case to >= total:
			arrow = h.keys.Up.Help().Key
		}
		pos = "more · lines " + strconv.Itoa(from) + "–" + strconv.Itoa(to) + " of " + strconv.Itoa(total)
	}
	k := h.keys
	return style.FootLines(st, [][2]string{
		{arrow, pos},
		{k.Up.Help().Key + "/" + k.Down.Help().Key + " " + k.PageUp.Help().Key + "/" + k.PageDown.Help().Key, "scroll"},
		{k.Close.Help().Key, k.Close.Help().Desc},
	}, iw)
}

// helpBody lays out the keys and the commands in iw cells: the groups of
// keys in as many columns as fit (every group uses the same width for its
// key column, so the descriptions of a column start at one place), then
// every command with its description; when that does not fit in room
// lines the body scrolls. settings, when not empty, ends the body.
func helpBody(st *style.Styles, keys style.KeyMap, commands []Command, settings string, iw, room int) []string {
	secs := keys.HelpSections()
	var tail []string
	if settings != "" {
		tail = append(tail, "")
		for _, l := range style.WrapHard("settings: "+style.OneLine(settings)+" (tick config lists them)", iw) {
			tail = append(tail, st.DialogDesc.Render(l))
		}
	}
	if len(commands) == 0 {
		return append(helpColumns(st, secs, iw), tail...)
	}
	cs := style.HelpSection{Title: "Commands"}
	for _, c := range commands {
		d := style.TruncateWidth(c.Desc, helpCommandDesc, st.Glyphs.Ellipsis)
		cs.Keys = append(cs.Keys, key.NewBinding(key.WithKeys("/"+c.Name), key.WithHelp("/"+c.Name, d)))
	}
	return append(helpColumns(st, append(secs, cs), iw), tail...)
}

// Layer puts the help below every other dialog.
func (h *Help) Layer() int { return LayerHelp }

// Update takes every key while the overlay is open (see Help.key;
// ctrl+c closes it as esc does, and never reaches the root's quit); a
// paste closes it and goes to the input; the wheel scrolls it.
func (h *Help) Update(c Context, msg tea.Msg) (Action, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if h.key(msg) {
			return Close{}, true
		}
		return nil, true
	case tea.PasteMsg:
		return Close{}, false
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			h.scroll(-style.ScrollStep)
		case tea.MouseWheelDown:
			h.scroll(style.ScrollStep)
		}
		return nil, true
	}
	return nil, false
}

// View draws the overlay over the whole area above the input.
func (h *Help) View(c Context, w, ht int) []string {
	return strings.Split(h.Box(c.St, c.Keys, c.Commands, c.ConfigPath, w, ht), "\n")
}
