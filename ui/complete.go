package ui

import (
	"github.com/tick-agent/tick/ui/style"

	"sort"
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

// cmdMatch is one command the popup offers.
type cmdMatch struct{ name, desc string }

// matches returns the commands the popup offers for the input raw, sorted;
// none unless raw is "/" and letters.
func (m *Model) matches(raw string) []cmdMatch {
	if !strings.HasPrefix(raw, "/") || strings.ContainsAny(raw, " \t\n") || raw == m.input.complete.closed {
		return nil
	}
	prefix := strings.ToLower(raw[1:])
	if prefix != "" && !isCommandName(prefix) {
		return nil
	}
	return m.commandsFrom(prefix)
}

// commandsFrom lists the commands whose names start with prefix, sorted
// by name ("" lists them all).
func (m *Model) commandsFrom(prefix string) []cmdMatch {
	var out []cmdMatch
	for name, c := range m.commands {
		if strings.HasPrefix(name, prefix) {
			out = append(out, cmdMatch{name, c.desc})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// completeKey handles a key while the popup is open; ok is false when the
// popup is closed or has no use for the key.
func (m *Model) completeKey(k tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	list := m.matches(m.input.raw())
	if len(list) == 0 {
		return nil, false
	}
	c := &m.input.complete
	c.sel = min(c.sel, len(list)-1)
	keys := m.keys
	switch {
	case key.Matches(k, keys.Queue): // a space after it: what is typed next is its argument
		m.input.setValue("/" + list[c.sel].name + " ")
		c.sel = 0
	case key.Matches(k, keys.HistoryPrev):
		c.sel = (c.sel + len(list) - 1) % len(list)
	case key.Matches(k, keys.HistoryNext):
		c.sel = (c.sel + 1) % len(list)
	case key.Matches(k, keys.Dismiss):
		c.closed = m.input.raw()
	case key.Matches(k, keys.Send):
		if _, exact := m.commands[strings.ToLower(m.input.raw()[1:])]; !exact {
			m.input.setValue("/" + list[c.sel].name)
		}
		c.sel = 0
		return m.submit(false), true
	default:
		return nil, false
	}
	return nil, true
}

// completeView renders the popup as a box of width w and at most h lines,
// to be drawn at the bottom of the area above the input; nil when closed.
func (m *Model) completeView(w, h int) []string {
	list := m.matches(m.input.raw())
	if len(list) == 0 || h < 3 {
		return nil
	}
	st := m.st
	iw := max(w-4, 1)
	sel := min(m.input.complete.sel, len(list)-1)
	n := min(len(list), completeMax, h-2)
	first := max(sel-n+1, 0)
	nameW := 0
	for _, c := range list {
		nameW = max(nameW, len(c.name)+1)
	}
	var lines []string
	for i := first; i < first+n; i++ {
		c := list[i]
		mark := "  "
		if i == sel {
			mark = st.Glyphs.UserPrompt
		}
		l := ansi.Truncate(mark+style.Pad("/"+c.name, nameW)+"  "+c.desc, iw, st.Glyphs.Ellipsis)
		l += strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
		if i == sel {
			lines = append(lines, st.PickerSel.Render(l))
		} else {
			lines = append(lines, st.DialogText.Render(l))
		}
	}
	return strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
}
