package chat

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// SelectedText is the logical text of the chat lines a mouse selection
// covers in the last frame (see copytext.go): shown is the frame's chat
// lines, span the columns the selection covers in each. Each run of lines
// from one part of the chat is copied as its text, blank lines kept but at
// either end.
func (c *Model) SelectedText(shown []string, span Span) string {
	var out []string
	ref := func(y int) anchor {
		if y < len(c.shown) {
			return c.shown[y]
		}
		return anchor{idx: -1}
	}
	for y := 0; y < len(shown); {
		if _, _, ok := span(y); !ok {
			y++
			continue
		}
		a, end := ref(y), y+1
		for end < len(shown) {
			b := ref(end)
			if _, _, ok := span(end); !ok || b.idx != a.idx || b.part != a.part || a.idx < 0 {
				break
			}
			end++
		}
		if a.idx < 0 {
			out = append(out, noEntry(shown, y, end)...)
		} else {
			out = append(out, c.copyRun(shown, span, y, end, a)...)
		}
		y = end
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

// noEntry copies lines [y0, y1) of the last frame that show no entry: the
// pane's blank bottom (blank lines) or the "more below" marker (left out).
func noEntry(shown []string, y0, y1 int) []string {
	var out []string
	for y := y0; y < y1; y++ {
		if strings.TrimSpace(ansi.Strip(shown[y])) == "" {
			out = append(out, "")
		}
	}
	return out
}
