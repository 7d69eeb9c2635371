package style

import (
	"charm.land/bubbles/v2/help"

	"github.com/tick-agent/tick/ui/termsafe"

	"github.com/charmbracelet/x/ansi"

	"charm.land/bubbles/v2/key"

	"charm.land/lipgloss/v2"

	"fmt"

	"time"

	"strconv"
	"strings"
)

// DiffStyle picks the style of one line of a diff (or of a command).
func DiffStyle(st *Styles, l string) lipgloss.Style {
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

// WrapHard wraps s at w cells, at spaces where it can and inside long
// words where it must; an empty s is one empty line.
func WrapHard(s string, w int) []string {
	if s == "" {
		return []string{""}
	}
	return strings.Split(keycapSafe(s, func(s string) string { return ansi.Wrap(s, max(w, 1), "") }), "\n")
}

// OneLine folds s into one line, safe for the terminal.
func OneLine(s string) string {
	return termsafe.Line(s)
}

// Sanitize makes tool output safe to draw (termsafe.Text), with tabs
// expanded.
func Sanitize(s string) string {
	return strings.ReplaceAll(termsafe.Text(s), "\t", "    ")
}

// TermText makes a file name safe to draw: control characters become "?"
// (so that an escape sequence stays visible as text), and invisible ones
// are shown as termsafe shows them.
func TermText(s string) string {
	return termsafe.Text(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '?'
		}
		return r
	}, s))
}

// FirstLine returns the first line of s.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// WrapText wraps plain text to w cells (at least 1), keeping its line
// breaks.
func WrapText(s string, w int) []string {
	if s == "" {
		return nil
	}
	w = max(w, 1)
	return strings.Split(keycapSafe(s, func(s string) string { return ansi.Wrap(s, w, "") }), "\n")
}

// HeadLines returns up to n lines from the start of s and how many more
// there are, without splitting all of a long s.
func HeadLines(s string, n int) (lines []string, more int) {
	s = strings.TrimRight(s, "\n")
	for len(lines) < n {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			return lines, 0
		}
		lines = append(lines, s[:i])
		s = s[i+1:]
	}
	return lines, strings.Count(s, "\n") + 1
}

// LastLines returns the last n lines of s.
func LastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n ")
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		j := strings.LastIndexByte(s[:i], '\n')
		if j < 0 {
			return s
		}
		i = j
	}
	return strings.TrimLeft(s[i:], "\n")
}

// Plural returns "1 line", "2 lines".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// Duration shows a duration the way a person reads it: 0.4s, 12s,
// 3m05s, 1h02m.
func Duration(d time.Duration) string {
	switch {
	case d < 0:
		d = 0
		fallthrough
	case d < 10*time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	default:
		return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
}

// Pad pads s with spaces to n cells.
func Pad(s string, n int) string {
	return s + strings.Repeat(" ", max(n-ansi.StringWidth(s), 0))
}

// HelpLine shows keys and what they do on one line.
func HelpLine(st *Styles, bs ...key.Binding) string {
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		h := b.Help()
		parts = append(parts, st.DialogKey.Render(h.Key)+" "+st.DialogDesc.Render(h.Desc))
	}
	return strings.Join(parts, "   ")
}

// Truncate cuts s to n runes with an ellipsis.
func Truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// FootLines lays the keys out in as many lines of w cells as they need,
// never cutting one, so every answer key stays visible.
func FootLines(st *Styles, items [][2]string, w int) []string {
	sep := st.HelpSep.Render(" · ")
	var lines []string
	cur, curW := "", 0
	for _, it := range items {
		k, d := it[0], it[1]
		iw := ansi.StringWidth(k) + 1 + ansi.StringWidth(d)
		if iw > w { // too wide alone: cut the description
			d = TruncateWidth(d, max(w-ansi.StringWidth(k)-1, 1), st.Glyphs.Ellipsis)
			iw = ansi.StringWidth(k) + 1 + ansi.StringWidth(d)
		}
		s := st.DialogKey.Render(k) + " " + st.DialogDesc.Render(d)
		switch {
		case curW == 0:
			cur, curW = s, iw
		case curW+3+iw <= w:
			cur, curW = cur+sep+s, curW+3+iw
		default:
			lines = append(lines, cur)
			cur, curW = s, iw
		}
	}
	if curW > 0 {
		lines = append(lines, cur)
	}
	return lines
}

// HelpModel returns a bubbles help model in the TUI's styles.
func HelpModel(st *Styles) help.Model {
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

// ScrollStep is how many lines one mouse wheel notch scrolls.
const ScrollStep = 3

// DialogMaxWidth is the widest a dialog box gets (the help overlay, the
// pickers, the setup screen).
const DialogMaxWidth = 100

// WrapHelp wraps "key desc" parts joined by sep to lines of w cells, styled
// as the plan's prompt.
func WrapHelp(st *Styles, parts []string, w int) []string {
	var out []string
	line := ""
	for _, part := range parts {
		switch {
		case line == "":
			line = part
		case ansi.StringWidth(line)+ansi.StringWidth(st.Glyphs.Separator+part) <= w:
			line += st.Glyphs.Separator + part
		default:
			out = append(out, st.PlanPrompt.Render(line))
			line = part
		}
	}
	if line != "" {
		out = append(out, st.PlanPrompt.Render(line))
	}
	return out
}

// Large pastes: over PasteMaxChars bytes or PasteMaxLines lines, the input
// keeps a paste aside behind a short token and the chat shows a sent one
// folded.
const (
	PasteMaxChars = 2000
	PasteMaxLines = 15
)

// LargePaste reports whether s is a large paste (PasteMaxChars,
// PasteMaxLines).
func LargePaste(s string) bool {
	return len(s) > PasteMaxChars || strings.Count(s, "\n") >= PasteMaxLines
}
