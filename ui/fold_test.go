package ui

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
)

// TestLongPasteStaysFolded: a sent message of 194 pasted lines shows as
// its first lines and "[pasted 194 lines]"; ctrl+o opens it, again folds
// it; the agent gets the whole text (issue 35 §7).
func TestLongPasteStaysFolded(t *testing.T) {
	m, a := newTestModel(t, 100, 240)
	var b strings.Builder
	b.WriteString("look at this log:\n")
	for i := range 193 {
		b.WriteString("log line " + strconv.Itoa(i+1) + "\n")
	}
	update(m, tea.PasteMsg{Content: b.String()})
	press(m, "enter")
	if got := a.last().prompt; got != b.String() && got != strings.TrimRight(b.String(), "\n") {
		t.Fatalf("the agent got %d bytes, not the whole paste", len(got))
	}
	s := screen(m)
	if !strings.Contains(s, "look at this log:") || !strings.Contains(s, "[pasted 194 lines] (ctrl+o to open)") || strings.Contains(s, "log line 150") {
		t.Fatalf("the sent paste is not folded:\n%s", s)
	}
	press(m, "ctrl+o")
	if s = screen(m); !strings.Contains(s, "log line 150") || strings.Contains(s, "[pasted 194 lines]") {
		t.Fatalf("ctrl+o did not open the paste:\n%s", s)
	}
}

// TestCommandPreviewKeepsExitStatus: a failed command's preview shows its
// exit status, not "+1 line"; a result one line over the preview shows
// whole (issue 35 §7); a note tick adds after the status (the
// sandbox's) does not hide it.
func TestCommandPreviewKeepsExitStatus(t *testing.T) {
	tests := []struct {
		name, out    string
		isErr        bool
		want, absent []string
	}{
		{"status hidden", "a\nb\nc\nd\ne\nexit status 2", true, []string{"+2 lines (ctrl+o to expand)", "exit status 2"}, []string{"+3 lines"}},
		{"one over", "a\nb\nc\nexit status 1", true, []string{"exit status 1"}, []string{"+1 line"}},
		{"short", "ok", false, []string{"ok"}, []string{"+"}},
		// seam with the sandbox: its note follows the status line
		{"sandbox note after it", "a\nb\nc\nd\nexit status 1\nsandbox: refused a write outside the workspace, to /tmp/x", true,
			[]string{"+2 lines (ctrl+o to expand)", "exit status 1"}, []string{"+3 lines"}},
		{"status shown, note hidden", "a\nexit status 1\nsandbox: refused\nsee above\nmore", true, []string{"exit status 1", "+2 lines"}, []string{"+1 line"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newTestModel(t, 100, 30)
			submit(m, "run")
			events(t, m,
				agent.ToolStart{ID: "b", Name: "bash", Summary: "make"},
				agent.ToolEnd{ID: "b", Name: "bash", Output: tt.out, IsError: tt.isErr},
			)
			s := screen(m)
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("lacks %q:\n%s", w, s)
				}
			}
			for _, w := range tt.absent {
				if strings.Contains(s, w) {
					t.Errorf("has %q:\n%s", w, s)
				}
			}
		})
	}
}
