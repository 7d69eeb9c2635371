package input

import (
	"github.com/tick-agent/tick/ui/style"

	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// completeMax is the most commands the popup lists at once.
const completeMax = 8

// completion is the popup of slash commands shown while the input holds
// one word starting with "/": every command whose name starts with what
// was typed, one line each with its description. tab completes the
// selected one and leaves a space after it (for its argument), ↑/↓
// select, enter runs it, esc closes the popup until the
// input changes.
type completion struct {
	sel    int
	closed string // the input for which esc closed the popup
}

// matches returns the commands of cmds the popup offers for the input raw,
// sorted; none unless raw is "/" and letters (cmds checks the name).
func (in *Model) matches(raw string, cmds Commands) []Command {
	if cmds == nil || !strings.HasPrefix(raw, "/") || strings.ContainsAny(raw, " \t\n") || raw == in.complete.closed {
		return nil
	}
	return cmds(strings.ToLower(raw[1:]))
}

// CompleteKey handles a key while the popup (of cmds) is open; ok is
// false when the popup is closed or has no use for the key. run asks the
// root to send the input, now the command the popup selected.
func (in *Model) CompleteKey(k tea.KeyPressMsg, cmds Commands) (run, ok bool) {
	list := in.matches(in.Raw(), cmds)
	if len(list) == 0 {
		return false, false
	}
	c := &in.complete
	c.sel = min(c.sel, len(list)-1)
	keys := in.keys
	switch {
	case key.Matches(k, keys.Complete): // a space after it: what is typed next is its argument
		in.SetValue("/" + list[c.sel].Name + " ")
		c.sel = 0
	case key.Matches(k, keys.Prev):
		c.sel = (c.sel + len(list) - 1) % len(list)
	case key.Matches(k, keys.Next):
		c.sel = (c.sel + 1) % len(list)
	case key.Matches(k, keys.Dismiss):
		c.closed = in.Raw()
	case key.Matches(k, keys.Run):
		typed := strings.ToLower(in.Raw()[1:])
		if !slices.ContainsFunc(list, func(c Command) bool { return c.Name == typed }) {
			in.SetValue("/" + list[c.sel].Name)
		}
		c.sel = 0
		return true, true
	default:
		return false, false
	}
	return false, true
}

// CompleteFromTop puts the popup's selection back on its first command (a
// key that changes what is typed).
func (in *Model) CompleteFromTop() { in.complete.sel = 0 }

// CompleteView renders the popup (of cmds) with st as a box of width w and
// at most h lines, to be drawn at the bottom of the area above the input;
// nil when closed.
func (in *Model) CompleteView(st *style.Styles, cmds Commands, w, h int) []string {
	list := in.matches(in.Raw(), cmds)
	if len(list) == 0 || h < 3 {
		return nil
	}
	iw := max(w-4, 1)
	sel := min(in.complete.sel, len(list)-1)
	n := min(len(list), completeMax, h-2)
	first := max(sel-n+1, 0)
	nameW := 0
	for _, c := range list {
		nameW = max(nameW, len(c.Name)+1)
	}
	var lines []string
	for i := first; i < first+n; i++ {
		c := list[i]
		mark := "  "
		if i == sel {
			mark = st.Glyphs.UserPrompt
		}
		l := style.TruncateWidth(mark+style.Pad("/"+c.Name, nameW)+"  "+c.Desc, iw, st.Glyphs.Ellipsis)
		l += strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
		if i == sel {
			lines = append(lines, st.PickerSel.Render(l))
		} else {
			lines = append(lines, st.DialogText.Render(l))
		}
	}
	return strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
}
