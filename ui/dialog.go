package ui

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
)

// dialogMaxWidth is the widest the help overlay gets.
const dialogMaxWidth = 100

// approval is the dialog for one ApprovalRequest: the command or the diff,
// y / a / n (then an optional reason) / esc.
type approval struct {
	req    agent.ApprovalRequest
	detail []string // the detail's lines, sanitized
	off    int      // first detail line shown
	typing bool     // typing a reason for a denial
	reason textinput.Model
}

func newApproval(st *Styles, req agent.ApprovalRequest) *approval {
	ti := textinput.New()
	ti.Prompt = "Reason: "
	ti.Placeholder = "optional, told to the model"
	s := textinput.DefaultStyles(st.Dark)
	s.Cursor.Blink = false // no ticking while the dialog is open
	ti.SetStyles(s)
	ti.CharLimit = 500
	var detail []string
	d := strings.TrimRight(sanitize(req.Detail), "\n")
	if d != "" && strings.TrimSpace(d) != strings.TrimSpace(req.Summary) {
		detail = strings.Split(d, "\n")
	}
	return &approval{req: req, detail: detail, reason: ti}
}

// reply sends the answer on the request's channel without ever blocking.
func (a *approval) reply(ans agent.Approval) {
	if a.req.Reply == nil {
		return
	}
	select {
	case a.req.Reply <- ans:
	default:
	}
}

// update handles a key. It returns the answer once the user gave one.
func (a *approval) update(msg tea.Msg, keys KeyMap) (*agent.Approval, tea.Cmd) {
	k, isKey := msg.(tea.KeyPressMsg)
	if a.typing {
		switch {
		case isKey && key.Matches(k, keys.Confirm):
			return &agent.Approval{Reason: strings.TrimSpace(a.reason.Value())}, nil
		case isKey && key.Matches(k, keys.Dismiss):
			return &agent.Approval{}, nil
		}
		var cmd tea.Cmd
		a.reason, cmd = a.reason.Update(msg)
		return nil, cmd
	}
	if !isKey {
		return nil, nil
	}
	switch {
	case key.Matches(k, keys.Allow):
		return &agent.Approval{Allow: true}, nil
	case key.Matches(k, keys.AllowAlways):
		return &agent.Approval{Allow: true, Always: true}, nil
	case key.Matches(k, keys.Deny):
		a.typing = true
		return nil, a.reason.Focus()
	case key.Matches(k, keys.Dismiss):
		return &agent.Approval{}, nil
	case key.Matches(k, keys.HistoryPrev):
		a.scroll(-1)
	case key.Matches(k, keys.HistoryNext):
		a.scroll(1)
	case key.Matches(k, keys.PageUp, keys.HalfUp):
		a.scroll(-10)
	case key.Matches(k, keys.PageDown, keys.HalfDown):
		a.scroll(10)
	}
	return nil, nil
}

func (a *approval) scroll(n int) {
	a.off = max(min(a.off+n, len(a.detail)-1), 0)
}

// view renders the dialog as a box of width w and at most h lines, to be
// drawn at the bottom of the area above the input.
func (a *approval) view(st *Styles, hm help.Model, keys KeyMap, w, h int) []string {
	g := st.Glyphs
	iw := max(w-4, 1) // border and padding take 4 columns
	var lines []string
	add := func(s string) { lines = append(lines, s) }
	add(st.DialogTitle.Render(ansi.Truncate("Allow "+a.req.Tool+"?", iw, g.Ellipsis)))
	sum := wrapText(oneLine(a.req.Summary), iw)
	if len(sum) > 3 {
		sum = append(sum[:2], ansi.Truncate(sum[2], iw-1, "")+g.Ellipsis)
	}
	for _, l := range sum {
		add(st.DialogText.Render(l))
	}
	var foot []string
	hm.SetWidth(iw)
	if a.typing {
		a.reason.SetWidth(max(iw-len(a.reason.Prompt)-1, 1))
		foot = []string{ansi.Truncate(a.reason.View(), iw, ""), hm.ShortHelpView(reasonKeys{keys}.ShortHelp())}
	} else {
		foot = []string{hm.ShortHelpView(approvalKeys{keys}.ShortHelp())}
	}
	room := h - 2 - len(lines) - 1 - len(foot) // borders, blank line before foot
	if len(a.detail) > 0 && room >= 3 {
		add("")
		room--
		show := a.detail[min(a.off, len(a.detail)-1):]
		more := len(show) > room
		if more {
			show = show[:room-1]
		}
		for _, l := range show {
			add(diffStyle(st, l).Render(ansi.Truncate(l, iw, g.Ellipsis)))
		}
		if more || a.off > 0 {
			add(st.DialogDesc.Render(ansi.Truncate("↑/↓ pgup/pgdn scroll · line "+itoa(a.off+1)+" of "+itoa(len(a.detail)), iw, g.Ellipsis)))
		}
	}
	add("")
	lines = append(lines, foot...)
	for i, l := range lines {
		lines[i] = l + strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
	}
	box := strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
	if len(box) > h { // keep the keys visible
		box = append(box[:max(h-2, 0)], box[len(box)-min(2, h):]...)
	}
	return box
}

// diffStyle picks the style of one line of a diff (or of a command).
func diffStyle(st *Styles, l string) lipgloss.Style {
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		return st.DialogDesc
	case strings.HasPrefix(l, "+"):
		return st.DiffAdd
	case strings.HasPrefix(l, "-"):
		return st.DiffDel
	case strings.HasPrefix(l, "@@"):
		return st.DiffHunk
	}
	return st.DialogText
}

// helpView renders the help overlay: every key and every slash command,
// centred in a w×h area. The groups of keys are laid out in as many
// columns as fit; every group uses the same width for its key column, so
// the descriptions of a column start at one place.
func helpView(st *Styles, keys KeyMap, commands []string, w, h int) string {
	iw := max(min(w-4, dialogMaxWidth), 1)
	lines := []string{st.DialogTitle.Render("Keys"), ""}
	lines = append(lines, helpColumns(st, keys.helpSections(), iw)...)
	if len(commands) > 0 {
		sort.Strings(commands)
		lines = append(lines, "", st.DialogTitle.Render("Commands"))
		lines = append(lines, wrapText(strings.Join(commands, "  "), iw)...)
	}
	lines = append(lines, "", st.DialogDesc.Render("any key closes this help"))
	if len(lines) > h-2 {
		lines = lines[:max(h-2, 0)]
	}
	cw := 1 // the box fits its content
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, iw, st.Glyphs.Ellipsis)
		cw = max(cw, ansi.StringWidth(lines[i]))
	}
	for i, l := range lines {
		lines[i] = l + strings.Repeat(" ", max(cw-ansi.StringWidth(l), 0))
	}
	box := st.DialogBox.Render(strings.Join(lines, "\n"))
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box)
}

// helpColumnGap is the space between two columns of the help overlay.
const helpColumnGap = 4

// helpColumns lays the sections out in the most columns (up to three) that
// fit in w cells, each section going to the shortest column so far, and
// returns the lines.
func helpColumns(st *Styles, secs []helpSection, w int) []string {
	kw := 0 // one key column width for every section
	for _, s := range secs {
		for _, b := range s.keys {
			if b.Enabled() {
				kw = max(kw, ansi.StringWidth(b.Help().Key))
			}
		}
	}
	for n := min(len(secs), 3); n >= 1; n-- {
		cols := make([][]string, n)
		widths := make([]int, n)
		for _, s := range secs {
			c := 0
			for i := range cols {
				if len(cols[i]) < len(cols[c]) {
					c = i
				}
			}
			if len(cols[c]) > 0 {
				cols[c] = append(cols[c], "")
			}
			cols[c] = append(cols[c], st.HelpGroup.Render(s.title))
			widths[c] = max(widths[c], ansi.StringWidth(s.title))
			for _, b := range s.keys {
				if !b.Enabled() {
					continue
				}
				k, d := b.Help().Key, b.Help().Desc
				cols[c] = append(cols[c], st.HelpKey.Render(k)+strings.Repeat(" ", kw-ansi.StringWidth(k)+2)+st.HelpDesc.Render(d))
				widths[c] = max(widths[c], kw+2+ansi.StringWidth(d))
			}
		}
		total := (n - 1) * helpColumnGap
		for _, cw := range widths {
			total += cw
		}
		if total > w && n > 1 {
			continue
		}
		rows := 0
		for _, c := range cols {
			rows = max(rows, len(c))
		}
		out := make([]string, rows)
		for r := range out {
			var b strings.Builder
			for i, c := range cols {
				cell := ""
				if r < len(c) {
					cell = c[r]
				}
				b.WriteString(cell)
				if i < n-1 {
					b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(cell)+helpColumnGap))
				}
			}
			out[r] = strings.TrimRight(b.String(), " ")
		}
		return out
	}
	return nil
}

// helpModel returns a bubbles help model in the TUI's styles.
func helpModel(st *Styles) help.Model {
	hm := help.New()
	hm.Styles = help.Styles{
		Ellipsis:       st.HelpSep,
		ShortKey:       st.DialogKey,
		ShortDesc:      st.DialogDesc,
		ShortSeparator: st.HelpSep,
		FullKey:        st.HelpKey,
		FullDesc:       st.HelpDesc,
		FullSeparator:  st.HelpSep,
	}
	return hm
}
