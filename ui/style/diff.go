package style

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// DiffLines renders a unified diff (tools.UnifiedDiff's text: "---" and
// "+++" headers, "@@" hunks) in w cells as the chat and the approval
// dialog show it: each line with its number in the file (the old file's
// for a removed line, the new file's otherwise), then "-", "+" or a space
// and the text, coloured through DiffDel, DiffAdd and DialogText; so it
// reads without colour too. Hunks after the first are parted by a line
// of the Ellipsis glyph; the file headers are left out (the caller names
// the file). Long lines wrap under their text. Text that is not a
// unified diff (a command, a note) is drawn as it is, wrapped. diff is
// sanitised here; the result is safe to draw.
func DiffLines(st *Styles, diff string, w int) []string {
	out, _ := DiffLinesUpTo(st, diff, w, -1)
	return out
}

// DiffLinesUpTo is DiffLines drawing only the first n lines (all for n <
// 0) and counting the rest, so a folded diff costs what it shows.
func DiffLinesUpTo(st *Styles, diff string, w, n int) (lines []string, more int) {
	w = max(w, 1)
	src := strings.Split(strings.TrimSuffix(Sanitize(diff), "\n"), "\n")
	num := lineNumberWidth(src)
	var out []string
	oldN, newN, hunks := 0, 0, 0
	inHunk := false
	for k, l := range src {
		if n >= 0 && len(out) >= n {
			return out[:n], len(out) - n + restRows(src[k:], w-num-3, hunks > 0)
		}
		switch {
		case !inHunk && (strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ")):
			continue
		case strings.HasPrefix(l, "@@"):
			o, n, ok := hunkStarts(l)
			if !ok {
				break
			}
			oldN, newN, inHunk = o, n, true
			if hunks > 0 {
				out = append(out, st.DiffHunk.Render(strings.Repeat(" ", num)+" "+st.Glyphs.Ellipsis))
			}
			hunks++
			continue
		case inHunk && strings.HasPrefix(l, "\\"):
			out = append(out, diffRow(st, st.DialogDesc, strings.Repeat(" ", num), " ", l, w)...)
			continue
		case inHunk && strings.HasPrefix(l, "-"):
			out = append(out, diffRow(st, st.DiffDel, pad(oldN, num), "-", l[1:], w)...)
			oldN++
			continue
		case inHunk && strings.HasPrefix(l, "+"):
			out = append(out, diffRow(st, st.DiffAdd, pad(newN, num), "+", l[1:], w)...)
			newN++
			continue
		case inHunk && strings.HasPrefix(l, " "):
			out = append(out, diffRow(st, st.DialogText, pad(newN, num), " ", l[1:], w)...)
			oldN++
			newN++
			continue
		}
		inHunk = false
		for _, piece := range WrapHard(l, w) {
			out = append(out, DiffStyle(st, l).Render(piece))
		}
	}
	if n >= 0 && len(out) > n {
		return out[:n], len(out) - n
	}
	return out, 0
}

// restRows counts the rows the lines of a diff not drawn would take at w
// cells of text: each line one row a w cells; a hunk header one row (the
// parting line), none before the first hunk (seen false).
func restRows(src []string, w int, seen bool) int {
	w = max(w, 1)
	rows := 0
	for _, l := range src {
		switch {
		case strings.HasPrefix(l, "@@"):
			if seen {
				rows++
			}
			seen = true
		case !seen && (strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ")):
		default:
			rows += max((ansi.StringWidth(l)-1+w-1)/w, 1)
		}
	}
	return rows
}

// diffRow renders one line of a hunk: the number, the sign and the text in
// s, wrapped in w cells with the continuation lines under the text.
func diffRow(st *Styles, s lipgloss.Style, no, sign, text string, w int) []string {
	no += " "
	mark := sign + " "
	if len(no)+len(mark) >= w { // too narrow for the number
		no = ""
	}
	gw := len(no) + len(mark)
	var out []string
	for i, piece := range WrapHard(text, max(w-gw, 1)) {
		n, m := no, mark
		if i > 0 {
			n, m = strings.Repeat(" ", len(no)), "  "
		}
		out = append(out, st.ToolMeta.Render(n)+s.Render(m+piece))
	}
	return out
}

// pad is n right-aligned in w cells.
func pad(n, w int) string {
	s := strconv.Itoa(n)
	return strings.Repeat(" ", max(w-len(s), 0)) + s
}

// hunkStarts reads the first old and new line numbers of a hunk header
// "@@ -a,b +c,d @@".
func hunkStarts(l string) (old, new int, ok bool) {
	f := strings.Fields(l)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, false
	}
	o, err1 := strconv.Atoi(strings.SplitN(f[1][1:], ",", 2)[0])
	n, err2 := strconv.Atoi(strings.SplitN(f[2][1:], ",", 2)[0])
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return max(o, 1), max(n, 1), true
}

// lineNumberWidth is the width of the largest line number the hunks of src
// reach (at least 1).
func lineNumberWidth(src []string) int {
	top := 1
	for _, l := range src {
		if !strings.HasPrefix(l, "@@") {
			continue
		}
		f := strings.Fields(l)
		for _, r := range f[1:min(len(f), 3)] {
			parts := strings.SplitN(strings.TrimLeft(r, "-+"), ",", 2)
			a, _ := strconv.Atoi(parts[0])
			b := 1
			if len(parts) == 2 {
				b, _ = strconv.Atoi(parts[1])
			}
			top = max(top, a+b)
		}
	}
	return len(strconv.Itoa(top))
}
