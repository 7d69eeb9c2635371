package chat

import (
	"github.com/tick-agent/tick/ui/style"

	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
)

// ToolOutput shows the latest output of a running tool call (ToolOutput)
// under its line; the call's result replaces it when it ends.
func (c *Model) ToolOutput(ev agent.ToolOutput) {
	t, ok := c.tools[ev.ID]
	if !ok || t.state != toolRunning {
		return
	}
	t.live = liveText(ev.Tail, ev.Total > int64(len(ev.Tail)))
	if i, ok := c.toolEntry[ev.ID]; ok {
		c.changed(i)
	}
}

// liveText makes a tail of raw output fit to show: the first line dropped
// when cut (the tail starts inside it), each line as a terminal shows it
// after carriage returns (a progress bar's last state), sanitized.
func liveText(tail string, cut bool) string {
	if cut {
		if i := strings.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	lines := strings.Split(strings.TrimRight(tail, "\n"), "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, "\r")
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			l = l[j+1:]
		}
		lines[i] = l
	}
	return style.Sanitize(strings.Join(lines, "\n"))
}

// liveLines returns the last lines of a running call's output: a few when
// collapsed, as many as were kept when expanded (ctrl+o), with a line
// saying how to see more or that earlier output is not kept. The logical
// text is the lines shown, whole.
func (t *toolCall) liveLines(st *style.Styles, w int, indent string) ([]string, []rowInfo, string) {
	g := st.Glyphs
	limit := previewLines
	if t.expanded {
		limit = expandedLines
	}
	all := strings.Split(t.live, "\n")
	lines := all[max(len(all)-limit, 0):]
	pre := indent + "  " + st.ToolMeta.Render(g.ToolOutput)
	cont := indent + "    "
	col := ansi.StringWidth(indent) + 4
	tw := max(w-col, 1)
	out := make([]string, 0, len(lines)+1)
	rows := make([]rowInfo, 0, len(lines)+1)
	if hidden := len(all) - len(lines); hidden > 0 {
		out = append(out, pre+st.ToolMeta.Render(fmt.Sprintf("%s %s above (ctrl+o shows all)", g.Ellipsis, style.Plural(hidden, "line"))))
		rows = append(rows, rowInfo{kind: rowChrome})
		pre = cont
	}
	for i, l := range lines {
		p := cont
		if i == 0 {
			p = pre
		}
		out = append(out, p+st.ToolOutput.Render(style.TruncateWidth(l, tw, g.Ellipsis)))
		rows = append(rows, textRow(col, true, i))
	}
	return out, rows, strings.Join(lines, "\n")
}
