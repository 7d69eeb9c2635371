package mcp

import (
	"fmt"
	"strings"
)

// Report renders statuses as the plain-text listing of /mcp and `tick mcp
// list`: one line per server (name, state, transport, target), its tools,
// the tools left out and, for a failed server, the reason and the tail of
// its stderr.
func Report(statuses []Status) string {
	if len(statuses) == 0 {
		return "no MCP servers are configured"
	}
	var b strings.Builder
	for i, st := range statuses {
		if i > 0 {
			b.WriteString("\n")
		}
		origin := ""
		if st.Project {
			origin = " (project)"
		}
		fmt.Fprintf(&b, "%s%s · %s · %s %s\n", st.Name, origin, st.State, st.Transport, st.Target)
		if st.Err != "" {
			fmt.Fprintf(&b, "  error: %s\n", st.Err)
		}
		if len(st.Tools) > 0 {
			b.WriteString(wrapList("  tools: ", st.Tools, reportWidth))
		} else if st.State == Ready {
			b.WriteString("  tools: none\n")
		}
		for _, sk := range st.Skipped {
			fmt.Fprintf(&b, "  left out: %s\n", sk)
		}
		if st.State == Failed && strings.TrimSpace(st.Stderr) != "" {
			b.WriteString("  stderr:\n")
			for _, l := range lastLines(st.Stderr, 12) {
				fmt.Fprintf(&b, "    %s\n", l)
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// reportWidth is the width Report wraps its lists of tools at.
const reportWidth = 80

// wrapList returns "prefix" and items joined by ", ", broken between items
// into lines of at most width bytes, each line after the first indented
// under the first item; an item longer than a line has one to itself.
// Every line ends with a newline.
func wrapList(prefix string, items []string, width int) string {
	var b strings.Builder
	indent := strings.Repeat(" ", len(prefix))
	line := prefix
	for i, it := range items {
		if i < len(items)-1 {
			it += ","
		}
		switch {
		case line == prefix:
			line += it
		case len(line)+1+len(it) > width:
			b.WriteString(line + "\n")
			line = indent + it
		default:
			line += " " + it
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}

// lastLines returns the last n non-empty-trailing lines of s.
func lastLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
