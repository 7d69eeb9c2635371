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
			fmt.Fprintf(&b, "  tools: %s\n", strings.Join(st.Tools, ", "))
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

// lastLines returns the last n non-empty-trailing lines of s.
func lastLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
