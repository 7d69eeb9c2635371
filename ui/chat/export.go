package chat

import (
	"fmt"
	"strings"

	"github.com/tick-agent/tick/ui/style"
)

// WriteMarkdown writes the transcript as /export's Markdown to b: the
// prompts, the answers as written, each tool call summarised in one line,
// notices and errors quoted. The caller sanitises the whole.
func (c *Model) WriteMarkdown(b *strings.Builder) {
	for _, e := range c.entries {
		switch e.kind {
		case entryUser:
			b.WriteString("\n## User\n\n" + e.text + "\n")
		case entryAssistant:
			if e.visible {
				b.WriteString("\n## Assistant\n\n" + strings.TrimRight(e.md.Source(), "\n") + "\n")
			}
		case entryTool:
			b.WriteString("\n" + toolLine(e.tool, ""))
		case entryNotice, entryInterrupted:
			b.WriteString("\n> " + strings.ReplaceAll(e.text, "\n", "\n> ") + "\n")
		case entryError:
			b.WriteString("\n> **Error:** " + strings.ReplaceAll(e.text, "\n", "\n> ") + "\n")
		}
	}
}

// toolLine summarises a tool call in a Markdown list item: its name, its
// summary, how it ended and its first output line; a task call's own
// calls are nested.
func toolLine(t *toolCall, indent string) string {
	state := "ran"
	switch t.state {
	case toolOK:
		state = "ok"
	case toolFailed:
		state = "failed"
	}
	s := fmt.Sprintf("%s- tool `%s` %s — %s", indent, t.name, inlineCode(t.summary), state)
	if t.dur > 0 {
		s += fmt.Sprintf(" (%s)", style.Duration(t.dur))
	}
	if first, more := style.HeadLines(t.output, 1); len(first) > 0 && strings.TrimSpace(first[0]) != "" {
		s += ": " + inlineCode(style.Truncate(first[0], 120))
		if more > 0 {
			s += fmt.Sprintf(" (+%d lines)", more)
		}
	}
	s += "\n"
	for _, c := range t.children {
		s += toolLine(c, indent+"  ")
	}
	return s
}

// inlineCode writes s as Markdown inline code, fenced with enough
// backticks.
func inlineCode(s string) string {
	s = style.OneLine(s)
	if s == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + " " + s + " " + fence
}
