package termsafe

import (
	"strconv"
	"strings"
)

// blankRun is the longest run of blank lines CollapseBlank leaves as it is.
const blankRun = 2

// CollapseBlank returns lines with every run of more than two blank lines
// replaced by one line saying how many there were ("⋯ 40 blank lines ⋯"),
// so that a dialog cannot push what matters out of sight with empty
// lines. A line is blank when it holds only white space, or a diff's
// one-character marker ("+", "-") and white space; the summary line keeps
// the run's marker when all its lines had the same one. lines is not
// modified; when nothing is collapsed it is returned as is.
func CollapseBlank(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); {
		marker, ok := blankMarker(lines[i])
		j := i + 1
		for ok && j < len(lines) {
			m, blank := blankMarker(lines[j])
			if !blank {
				break
			}
			if m != marker {
				marker = ""
			}
			j++
		}
		if !ok || j-i <= blankRun {
			if out != nil {
				out = append(out, lines[i:j]...)
			}
			i = j
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(lines)), lines[:i]...)
		}
		out = append(out, marker+"⋯ "+strconv.Itoa(j-i)+" blank lines ⋯")
		i = j
	}
	if out == nil {
		return lines
	}
	return out
}

// blankMarker reports whether l is blank, and its diff marker ("+" or
// "-", "" for none).
func blankMarker(l string) (string, bool) {
	marker := ""
	if strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") {
		marker, l = l[:1], l[1:]
	}
	return marker, strings.TrimSpace(l) == ""
}
