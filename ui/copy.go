package ui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/ui/style"
	"github.com/tick-agent/tick/ui/termsafe"
)

// copyCommand copies the last answer (/copy) or its Nth code block
// (/copy N) to the clipboard.
func (m *Model) copyCommand(args string) tea.Cmd {
	answer := m.chat.LastAnswer()
	if answer == "" {
		m.chat.AddNotice("/copy: there is no answer to copy yet")
		return nil
	}
	what, text := "the last answer", answer
	if args != "" {
		n, err := strconv.Atoi(args)
		blocks := codeBlocks(answer)
		switch {
		case err != nil || n < 1:
			m.chat.AddNotice("/copy takes the number of a code block of the last answer: /copy 1")
			return nil
		case n > len(blocks):
			m.chat.AddNotice(fmt.Sprintf("/copy %d: the last answer has %d code blocks", n, len(blocks)))
			return nil
		}
		what, text = fmt.Sprintf("code block %d of the last answer", n), blocks[n-1]
	}
	return m.copyText(what, text)
}

// copyText puts text on the clipboard: through the terminal (OSC 52,
// which tmux and most terminal emulators take) and the system clipboard
// tool when there is one, then says so in a toast (the chat keeps its
// place and its lines). The text is made safe first: what
// the model wrote must not carry control sequences into a later paste.
func (m *Model) copyText(what, text string) tea.Cmd {
	text = termsafe.Text(text)
	if len(text) > copyMax {
		m.chat.AddNotice(fmt.Sprintf("%s is %d KiB, more than a terminal takes through OSC 52 (%d KiB): not copied; /export writes the conversation to a file", what, len(text)>>10, copyMax>>10))
		return nil
	}
	lines := strings.Count(text, "\n") + 1
	note := fmt.Sprintf("copied %s (%s) to the clipboard", what, style.Plural(lines, "line"))
	svc := m.cfg.Services
	if !svc.Offers().CopyText {
		return tea.Batch(tea.SetClipboard(text), m.toast(note, toastFor))
	}
	return tea.Batch(tea.SetClipboard(text), func() tea.Msg {
		if tool, err := svc.CopyText(text); err == nil && tool != "" {
			return toastMsg{Text: note + " (and " + tool + ")"}
		}
		return toastMsg{Text: note + " (through the terminal)"}
	})
}

// copyMax is the most bytes copied at once: terminals limit OSC 52
// (tmux and xterm to some hundreds of KiB once base64-encoded).
const copyMax = 256 << 10

// codeBlocks returns the contents of the fenced code blocks of a Markdown
// text, in order (``` or ~~~ fences, indented at most three spaces; an
// unclosed fence runs to the end).
func codeBlocks(md string) []string {
	var (
		blocks []string
		cur    []string
		fence  string // the open fence's marker, "" outside
	)
	for _, line := range strings.Split(md, "\n") {
		trim := strings.TrimLeft(line, " ")
		indent := len(line) - len(trim)
		marker := fenceMarker(trim)
		switch {
		case fence == "" && marker != "" && indent <= 3:
			fence, cur = marker, nil
		case fence != "" && indent <= 3 && strings.HasPrefix(trim, fence) && strings.TrimSpace(strings.TrimLeft(trim, fence[:1])) == "":
			blocks = append(blocks, strings.Join(cur, "\n"))
			fence = ""
		case fence != "":
			cur = append(cur, line)
		}
	}
	if fence != "" {
		blocks = append(blocks, strings.Join(cur, "\n"))
	}
	return blocks
}

// fenceMarker is the run of three or more backticks or tildes that opens
// a fence at the start of s, or "".
func fenceMarker(s string) string {
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 || (s[0] == '`' && strings.Contains(s[n:], "`")) {
		return ""
	}
	return s[:n]
}
