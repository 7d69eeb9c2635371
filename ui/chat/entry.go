package chat

import (
	"github.com/tick-agent/tick/ui/style"
	"strconv"

	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/markdown"
)

// entryKind says what an entry of the transcript shows.
type entryKind uint8

const (
	entryUser entryKind = iota
	entryAssistant
	entryReasoning
	entryTool
	entryNotice
	entryError
	entryInterrupted
)

// entry is one block of the transcript. Its rendered lines are cached for
// one width; dirty marks a change of content since they were rendered. An
// assistant answer caches nothing here: its markdown.Renderer keeps its
// rendered blocks, and the chat lays them out one by one (see scroll.go).
type entry struct {
	kind entryKind
	text string // user, notice, error, reasoning text
	hint string // error: what to do about it

	md      *markdown.Renderer // assistant answer
	visible bool               // assistant: some non-blank text arrived

	tool *toolCall // tool call

	start, end time.Time // reasoning: when it started and ended
	open       bool      // reasoning, a long user message: show all of it (ctrl+o)

	lines []string  // rendered lines, including the blank line above (not for answers)
	rows  []rowInfo // what each of lines shows of logic (see copytext.go)
	logic string    // the logical text lines show, for a copy: unwrapped, undecorated
	width int       // width of lines; 0 means never rendered
	dirty bool
}

// toolState is the life cycle of one tool call.
type toolState uint8

const (
	toolRunning toolState = iota
	toolOK
	toolFailed
)

// toolCall is what the chat shows of one tool call: the line, its output
// and, for a task call, the subagent's own tool calls nested below it.
type toolCall struct {
	id, name, summary string
	cut               bool // the arguments were too large: summary says so, as an error
	state             toolState
	start             time.Time
	dur               time.Duration
	output            string // sanitized tool result
	diff              string // the file change of an edit (agent.ToolEnd.Diff), drawn by style.DiffLines
	live              string // sanitized output so far, while it runs (ToolOutput)
	expanded          bool   // show all of the output (and every child)

	// todo calls: the plan's counts after the call.
	planDone, planTotal int
	planSet             bool

	// task calls: the subagent's tool calls in order, by id.
	children []*toolCall
	childIdx map[string]int
}

// Limits of what a tool entry shows.
const (
	previewLines  = 3   // output lines under a collapsed tool call
	diffLines     = 8   // diff lines under a collapsed edit
	expandedLines = 500 // output lines under an expanded tool call
	liveChildren  = 5   // nested calls shown under a running task
	reasoningTail = 3   // lines of reasoning shown while it streams
)

// render returns the entry's lines at width w (at least 1). gap adds the
// blank line that separates it from the entry above. An assistant answer
// is all of its Markdown at once; the chat shows it block by block instead
// (see chat.part). It also keeps, in e.rows and e.logic, what each line
// shows of the entry's logical text, for a mouse copy (copytext.go).
func (e *entry) render(st *style.Styles, w int, gap bool, now time.Time) []string {
	var r rowsOut
	if gap {
		r.add("", rowInfo{})
	}
	g := st.Glyphs
	switch e.kind {
	case entryUser:
		pw := ansi.StringWidth(g.UserPrompt)
		text, folded := e.text, ""
		if !e.open && style.LargePaste(text) { // a long paste stays folded once sent
			text, folded = foldedUser(text, st)
		}
		r.logic = text
		for i, l := range style.WrapText(text, w-pw) {
			p := strings.Repeat(" ", pw)
			if i == 0 {
				p = st.UserPrompt.Render(g.UserPrompt)
			}
			r.add(p+st.UserText.Render(l), textRow(pw, i == 0, 0))
		}
		if folded != "" {
			r.add(strings.Repeat(" ", pw)+st.ToolMeta.Render(style.TruncateWidth(folded, max(w-pw, 1), g.Ellipsis)), rowInfo{kind: rowChrome})
		}
	case entryAssistant:
		if !e.visible {
			return nil
		}
		e.md.SetWidth(w)
		for _, l := range e.md.Lines() {
			r.add(l, rowInfo{})
		}
	case entryReasoning:
		r.lines, r.rows, r.logic = e.renderReasoning(st, w, now)
		if gap {
			r.lines, r.rows = append([]string{""}, r.lines...), append([]rowInfo{{}}, r.rows...)
		}
	case entryTool:
		lines, rows, text := e.tool.renderRows(st, w, now)
		r.lines, r.rows, r.logic = append(r.lines, lines...), append(r.rows, rows...), text
	case entryNotice:
		r.logic = e.text
		for i, l := range style.WrapText(e.text, w-2) {
			p := "  "
			if i == 0 {
				p = g.Notice + " "
			}
			r.add(st.Notice.Render(p+l), textRow(ansi.StringWidth(p), i == 0, 0))
		}
	case entryInterrupted:
		r.logic = e.text
		r.add(st.ToolRun.Render(g.Interrupted+" ")+st.Notice.Render(e.text), textRow(ansi.StringWidth(g.Interrupted)+1, true, 0))
	case entryError:
		e.renderError(st, w, &r)
	}
	e.rows, e.logic = r.rows, r.logic
	return r.lines
}

// renderError adds an error's title, text and hint to r; the logical text
// is the text and the hint, a line apart.
func (e *entry) renderError(st *style.Styles, w int, r *rowsOut) {
	bar := st.ErrorBar.Render(st.Glyphs.VRule + " ")
	bw := ansi.StringWidth(st.Glyphs.VRule) + 1
	r.add(st.ErrorTitle.Render(st.Glyphs.Error+" Error"), rowInfo{kind: rowChrome})
	r.logic = e.text
	for i, l := range style.WrapText(e.text, w-2) {
		r.add(bar+st.ErrorText.Render(l), textRow(bw, i == 0, 0))
	}
	if e.hint == "" {
		return
	}
	hintLine := strings.Count(e.text, "\n") + 1
	r.logic += "\n" + e.hint
	for i, l := range style.WrapText(e.hint, w-2) {
		r.add(bar+st.ErrorHint.Render(l), textRow(bw, i == 0, hintLine))
	}
}

func (e *entry) renderReasoning(st *style.Styles, w int, now time.Time) ([]string, []rowInfo, string) {
	g := st.Glyphs
	var r rowsOut
	if !e.end.IsZero() {
		head := g.Thinking + " Thought for " + style.Duration(e.end.Sub(e.start))
		if !e.open {
			if strings.TrimSpace(e.text) != "" {
				head += " (ctrl+o to open)"
			}
			r.add(st.Thinking.Render(head), rowInfo{kind: rowChrome})
			return r.lines, r.rows, ""
		}
		r.add(st.Thinking.Render(head), rowInfo{kind: rowChrome})
		r.logic = strings.TrimSpace(style.Sanitize(e.text))
		for i, l := range style.WrapText(r.logic, w-2) {
			r.add(st.Thinking.Render("  "+l), textRow(2, i == 0, 0))
		}
		return r.lines, r.rows, r.logic
	}
	r.add(st.Thinking.Render(g.Thinking+" Thinking…"), rowInfo{kind: rowChrome})
	lines := style.WrapText(style.LastLines(style.Sanitize(e.text), reasoningTail), w-2)
	if len(lines) > reasoningTail {
		lines = lines[len(lines)-reasoningTail:]
	}
	for _, l := range lines { // the last lines of a stream: copied as shown
		r.add(st.Thinking.Render("  "+l), rowInfo{})
	}
	return r.lines, r.rows, ""
}

// render returns the tool call's line, its nested calls and its output.
// indent prefixes every line (nested calls of a subagent).
func (t *toolCall) render(st *style.Styles, w int, now time.Time, indent string) []string {
	lines, _, _ := t.renderIndented(st, w, now, indent)
	return lines
}

// renderRows is render at the top level, with what each line shows of
// the call's logical text: its output lines (see outputLines). The line
// and the nested calls are copied as shown.
func (t *toolCall) renderRows(st *style.Styles, w int, now time.Time) ([]string, []rowInfo, string) {
	return t.renderIndented(st, w, now, "")
}

func (t *toolCall) renderIndented(st *style.Styles, w int, now time.Time, indent string) ([]string, []rowInfo, string) {
	g := st.Glyphs
	iw := ansi.StringWidth(indent)
	r := rowsOut{lines: []string{indent + t.headline(st, w-iw, now)}, rows: []rowInfo{{}}}
	if t.name == agent.TaskTool && len(t.children) > 0 {
		kids := t.children
		hidden := 0
		switch {
		case t.expanded:
		case t.state != toolRunning:
			kids = nil
		case len(kids) > liveChildren:
			hidden = len(kids) - liveChildren
			kids = kids[hidden:]
		}
		nest := indent + "  " + st.ToolMeta.Render(g.Nested)
		if hidden > 0 {
			r.add(nest+st.ToolMeta.Render(fmt.Sprintf("%s %d earlier", g.Ellipsis, hidden)), rowInfo{kind: rowChrome})
		}
		for _, c := range kids {
			r.join(c.renderIndented(st, w, now, nest))
		}
	}
	if t.name == agent.TodoTool && t.state == toolOK && !t.expanded {
		return r.lines, r.rows, r.logic // the list lives in the panel
	}
	if t.name == agent.TaskTool && t.state == toolRunning {
		return r.lines, r.rows, r.logic
	}
	r.join(t.outputLines(st, w, indent))
	return r.lines, r.rows, r.logic
}

// headline is the one-line summary: icon, name, key argument, meta.
func (t *toolCall) headline(st *style.Styles, w int, now time.Time) string {
	g := st.Glyphs
	var icon string
	switch t.state {
	case toolRunning:
		icon = st.ToolRun.Render(g.ToolRunning)
	case toolOK:
		icon = st.ToolOK.Render(g.ToolOK)
	default:
		icon = st.ToolError.Render(g.ToolError)
	}
	if t.name == agent.TodoTool {
		text := "Plan"
		switch {
		case t.state == toolFailed:
			text += g.Separator + "rejected: " + style.FirstLine(strings.TrimPrefix(t.output, "Error: "))
		case t.planSet:
			text += fmt.Sprintf("%s%d/%d done", g.Separator, t.planDone, t.planTotal)
		}
		return style.TruncateWidth(icon+" "+st.PlanLine.Render(text), w, g.Ellipsis)
	}
	var meta []string
	if t.name == agent.TaskTool && len(t.children) > 0 {
		meta = append(meta, style.Plural(len(t.children), "tool call"))
	}
	switch {
	case t.state == toolRunning && !now.IsZero() && now.After(t.start):
		meta = append(meta, style.Duration(now.Sub(t.start)))
	case t.state != toolRunning && t.dur >= 0: // restored calls have no duration
		meta = append(meta, style.Duration(t.dur))
	}
	metaS := ""
	if len(meta) > 0 {
		metaS = "  " + strings.Join(meta, g.Separator)
	}
	head := icon + " " + st.ToolName.Render(t.name)
	room := w - ansi.StringWidth(head) - ansi.StringWidth(metaS) - 2
	arg := ""
	if t.summary != "" && room > 3 {
		argStyle := st.ToolArg
		if t.cut {
			argStyle = st.ToolError
		}
		arg = "  " + argStyle.Render(style.TruncateWidth(t.summary, room, g.Ellipsis))
	}
	return style.TruncateWidth(head+arg+st.ToolMeta.Render(metaS), w, g.Ellipsis)
}

// outputLines returns the first lines of the output, dimmed, or all of it
// when expanded; with what each shows of the logical text: the output
// lines it shows, whole (a line cut at the edge or wrapped is one line),
// and the status line under them, without the gutter, the hints or the
// count of hidden lines. A diff is copied as shown.
func (t *toolCall) outputLines(st *style.Styles, w int, indent string) ([]string, []rowInfo, string) {
	if t.state == toolRunning && t.live != "" {
		return t.liveLines(st, w, indent)
	}
	if t.diff != "" && t.state == toolOK {
		l := t.diffLines(st, w, indent)
		return l, make([]rowInfo, len(l)), ""
	}
	if strings.TrimSpace(t.output) == "" {
		return nil, nil, ""
	}
	g := st.Glyphs
	limit := previewLines
	if t.expanded {
		limit = expandedLines
	}
	lines, more := style.HeadLines(t.output, limit)
	if more == 1 { // one hidden line costs as much as its hint
		lines, more = style.HeadLines(t.output, limit+1)
	}
	status := ""
	if more > 0 {
		line, fromEnd := agent.StatusLine(t.output)
		if line != "" && fromEnd < more { // hidden: shown below the hint instead
			status = line
			more--
		}
	}
	r, cut := t.previewRows(st, w, indent, lines)
	cont := indent + "    "
	tw := max(w-ansi.StringWidth(indent)-4, 1)
	switch {
	case more > 0:
		hint := ""
		if !t.expanded {
			hint = " (ctrl+o to expand)"
		}
		r.add(cont+st.ToolMeta.Render(fmt.Sprintf("%s +%s%s", g.Ellipsis, style.Plural(more, "line"), hint)), rowInfo{kind: rowChrome})
	case cut:
		r.add(cont+st.ToolMeta.Render(g.Ellipsis+" line cut (ctrl+o to expand)"), rowInfo{kind: rowChrome})
	}
	if status != "" {
		s := st.ToolOutput
		if t.state == toolFailed {
			s = st.ToolError
		}
		r.add(cont+s.Render(style.TruncateWidth(status, tw, g.Ellipsis)), textRow(ansi.StringWidth(cont), true, len(lines)))
		r.logic += "\n" + status
	}
	return r.lines, r.rows, r.logic
}

// previewRows lays out the output lines shown under a call: the first
// after the gutter, each cut at the edge (wrapped when expanded); cut says
// whether an end was hidden. The logical text is the lines, whole.
func (t *toolCall) previewRows(st *style.Styles, w int, indent string, lines []string) (r rowsOut, cut bool) {
	g := st.Glyphs
	pre := indent + "  " + st.ToolMeta.Render(g.ToolOutput)
	cont := indent + "    "
	col := ansi.StringWidth(indent) + 4
	tw := max(w-col, 1)
	for k, l := range lines {
		pieces := []string{style.TruncateWidth(l, tw, g.Ellipsis)}
		switch {
		case ansi.StringWidth(l) <= tw:
		case t.expanded: // all of a long line, wrapped
			pieces = style.WrapHard(l, tw)
		default:
			cut = true
		}
		for i, piece := range pieces {
			p := cont
			if len(r.lines) == 0 {
				p = pre
			}
			r.add(p+st.ToolOutput.Render(piece), textRow(col, i == 0, k))
		}
	}
	r.logic = strings.Join(lines, "\n")
	return r, cut
}

// diffLines shows an edit's change: a count of the added and removed
// lines, then the diff (style.DiffLines, the approval dialog's renderer),
// its first diffLines lines unless expanded, with the count of the rest.
func (t *toolCall) diffLines(st *style.Styles, w int, indent string) []string {
	g := st.Glyphs
	pre := indent + "  " + st.ToolMeta.Render(g.ToolOutput)
	cont := indent + "    "
	tw := max(w-ansi.StringWidth(indent)-4, 1)
	add, del := diffCounts(t.diff)
	out := []string{pre + st.ToolOutput.Render(style.TruncateWidth(style.Plural(add, "line")+" added, "+strconv.Itoa(del)+" removed", tw, g.Ellipsis))}
	limit := diffLines
	if t.expanded {
		limit = expandedLines
	}
	lines, more := style.DiffLinesUpTo(st, t.diff, tw, limit)
	for _, l := range lines {
		out = append(out, cont+l)
	}
	if more > 0 {
		hint := ""
		if !t.expanded {
			hint = " (ctrl+o to expand)"
		}
		out = append(out, cont+st.ToolMeta.Render(fmt.Sprintf("%s +%s%s", g.Ellipsis, style.Plural(more, "line"), hint)))
	}
	return out
}

// diffCounts counts the added and removed lines of a unified diff.
func diffCounts(diff string) (add, del int) {
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
		case strings.HasPrefix(l, "+"):
			add++
		case strings.HasPrefix(l, "-"):
			del++
		}
	}
	return add, del
}

// userFoldLines is how many lines of a long message show while folded.
const userFoldLines = 2

// foldedUser is what a folded long message shows: its first lines, and
// the line that says how long it is and how to open it.
func foldedUser(text string, st *style.Styles) (head, fold string) {
	lines, _ := style.HeadLines(text, userFoldLines)
	for i, l := range lines { // a one-line paste is long too
		if len(l) > 200 {
			lines[i] = strings.ToValidUTF8(l[:200], "") + st.Glyphs.Ellipsis
		}
	}
	n := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1
	return strings.Join(lines, "\n"), st.Glyphs.Ellipsis + " [pasted " + style.Plural(n, "line") + "] (ctrl+o to open)"
}
