package dialog

import (
	"github.com/tick-agent/tick/ui/style"

	"strings"

	"github.com/charmbracelet/x/ansi"
)

// helpCommandDesc is the most cells of a command's description in the
// help overlay.
const helpCommandDesc = 32

// helpColumnGap is the space between two columns of the help overlay.
const helpColumnGap = 4

// helpColumns lays the sections out in the most columns (up to three) that
// fit in w cells, each section going to the shortest column so far, and
// returns the lines.
func helpColumns(st *style.Styles, secs []style.HelpSection, w int) []string {
	kw := 0 // one key column width for every section
	for _, s := range secs {
		for _, b := range s.Keys {
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
			cols[c] = append(cols[c], st.HelpGroup.Render(s.Title))
			widths[c] = max(widths[c], ansi.StringWidth(s.Title))
			for _, b := range s.Keys {
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
