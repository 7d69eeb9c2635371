package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

func TestToolLines(t *testing.T) {
	out5 := "line1\nline2\nline3\nline4\nline5"
	tests := []struct {
		name   string
		events []agent.Event
		want   []string
		absent []string
	}{
		{
			name:   "running bash",
			events: []agent.Event{agent.ToolStart{ID: "1", Name: "bash", Summary: "go test ./..."}},
			want:   []string{"○ bash  go test ./..."},
		},
		{
			name: "finished bash: three output lines",
			events: []agent.Event{agent.ToolStart{ID: "1", Name: "bash", Summary: "go test ./..."},
				agent.ToolEnd{ID: "1", Name: "bash", Output: out5, Duration: 1500 * time.Millisecond}},
			want:   []string{"● bash  go test ./...  1.5s", "⎿ line1", "line3", "+2 lines (ctrl+o to expand)"},
			absent: []string{"line4"},
		},
		{
			name: "failed edit",
			events: []agent.Event{agent.ToolStart{ID: "1", Name: "edit_file", Summary: "agent/loop.go"},
				agent.ToolEnd{ID: "1", Name: "edit_file", Output: "Error: old_string not found", IsError: true}},
			want: []string{"✗ edit_file  agent/loop.go", "Error: old_string not found"},
		},
		{
			name: "todo call is one line",
			events: []agent.Event{agent.ToolStart{ID: "1", Name: "todo"},
				agent.TodoUpdate{List: plan("", "x A", "x B", "> C", "p D", "p E")},
				agent.ToolEnd{ID: "1", Name: "todo", Output: "[x] #1: A\n[x] #2: B\n"}},
			want:   []string{"● Plan · 2/5 done"},
			absent: []string{"[x] #1: A"},
		},
		{
			name: "rejected todo call",
			events: []agent.Event{agent.ToolStart{ID: "1", Name: "todo"},
				agent.ToolEnd{ID: "1", Name: "todo", Output: "Error: 2 items are in_progress", IsError: true}},
			want: []string{"✗ Plan · rejected: 2 items are in_progress"},
		},
		{
			name: "task: children nested live",
			events: []agent.Event{agent.ToolStart{ID: "p", Name: "task", Summary: "Explore the repo"},
				agent.Subagent{ParentID: "p", Event: agent.ToolStart{ID: "c1", Name: "read_file", Summary: "go.mod"}},
				agent.Subagent{ParentID: "p", Event: agent.ToolEnd{ID: "c1", Name: "read_file", Output: "module x"}},
				agent.Subagent{ParentID: "p", Event: agent.ToolStart{ID: "c2", Name: "bash", Summary: "ls"}}},
			want: []string{"○ task  Explore the repo  2 tool calls", "│ ● read_file  go.mod", "│ ○ bash  ls"},
		},
		{
			name: "task: collapsed when done",
			events: []agent.Event{agent.ToolStart{ID: "p", Name: "task", Summary: "Explore the repo"},
				agent.Subagent{ParentID: "p", Event: agent.ToolStart{ID: "c1", Name: "read_file", Summary: "go.mod"}},
				agent.Subagent{ParentID: "p", Event: agent.ToolEnd{ID: "c1", Name: "read_file"}},
				agent.ToolEnd{ID: "p", Name: "task", Output: "The repo is a Go module.", Duration: 2 * time.Second}},
			want:   []string{"● task  Explore the repo  1 tool call · 2.0s", "⎿ The repo is a Go module."},
			absent: []string{"read_file"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newTestModel(t, 100, 30)
			submit(m, "go")
			events(t, m, tt.events...)
			s := screen(m)
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("screen lacks %q", w)
				}
			}
			for _, w := range tt.absent {
				if strings.Contains(s, w) {
					t.Errorf("screen has %q", w)
				}
			}
			if t.Failed() {
				t.Log("\n" + s)
			}
		})
	}
}

func TestExpandToolOutput(t *testing.T) {
	m, _ := newTestModel(t, 100, 40)
	submit(m, "go")
	events(t, m, agent.ToolStart{ID: "1", Name: "bash", Summary: "seq 10"},
		agent.ToolEnd{ID: "1", Name: "bash", Output: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10"})
	if strings.Contains(screen(m), "    9") {
		t.Fatal("collapsed output shows line 9")
	}
	press(m, "ctrl+o")
	if s := screen(m); !strings.Contains(s, "    9") || !strings.Contains(s, "    10") {
		t.Fatalf("ctrl+o did not expand:\n%s", s)
	}
	press(m, "ctrl+o")
	if strings.Contains(screen(m), "    9") {
		t.Fatal("second ctrl+o did not collapse")
	}
}

func TestToolOutputIsSanitized(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	submit(m, "go")
	events(t, m, agent.ToolStart{ID: "1", Name: "bash", Summary: "ls --color"},
		agent.ToolEnd{ID: "1", Name: "bash", Output: "\x1b[31mred\x1b[0m\tfile\r\n\x1b[2Jclear"})
	raw := m.View().Content
	if strings.Contains(raw, "\x1b[2J") || strings.Contains(raw, "\x1b[31mred") {
		t.Fatalf("tool output escape sequences reached the screen: %q", raw)
	}
	if !strings.Contains(screen(m), "red    file") {
		t.Fatalf("sanitized output:\n%s", screen(m))
	}
}

func TestScrolling(t *testing.T) {
	m, _ := newTestModel(t, 80, 20)
	now := time.Now()
	m.clock = func() time.Time { return now } // the status bar's elapsed time stays put
	submit(m, "go")
	for i := range 60 {
		events(t, m, agent.TextDelta{Text: fmt.Sprintf("paragraph %d\n\n", i)})
	}
	s := screen(m)
	if !strings.Contains(s, "paragraph 59") || strings.Contains(s, "more below") {
		t.Fatalf("not following the bottom:\n%s", s)
	}
	press(m, "pgup")
	s = screen(m)
	if strings.Contains(s, "paragraph 59") || !strings.Contains(s, "more below") {
		t.Fatalf("pgup did not scroll up with a marker:\n%s", s)
	}
	// New text does not move a scrolled view.
	before := screen(m)
	events(t, m, agent.TextDelta{Text: "paragraph 60\n\n"})
	if screen(m) != before {
		t.Fatal("the view moved while scrolled up")
	}
	press(m, "end")
	if s := screen(m); !strings.Contains(s, "paragraph 60") || strings.Contains(s, "more below") {
		t.Fatalf("end did not resume following:\n%s", s)
	}
	// The wheel scrolls up; scrolling back down to the bottom follows again.
	update(m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if !strings.Contains(screen(m), "more below") {
		t.Fatal("wheel up did not scroll")
	}
	update(m, tea.MouseWheelMsg{Button: tea.MouseWheelDown}, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if !m.chat.Following() {
		t.Fatal("scrolling back to the bottom did not follow")
	}
	for _, k := range []string{"ctrl+u", "ctrl+u"} {
		press(m, k)
	}
	press(m, "ctrl+d")
	if m.chat.Following() {
		t.Fatal("half a page down from a page up reached the bottom")
	}
	press(m, "ctrl+d")
	if !m.chat.Following() {
		t.Fatal("ctrl+d back to the bottom did not follow")
	}
	// Home (on an empty input) goes to the top.
	press(m, "home")
	if s := screen(m); !strings.Contains(s, "Welcome") {
		t.Fatalf("home did not show the top:\n%s", s)
	}
}

func TestStreamingRepaintIsThrottled(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	submit(m, "go")
	m.View()
	cmd := update(m, eventsMsg{turn: m.turn.id, ch: m.turn.ch, events: []agent.Event{agent.TextDelta{Text: "hello "}}})
	if !m.paint.pending {
		t.Fatal("a text batch did not schedule a repaint")
	}
	if cmd == nil {
		t.Fatal("no command: the event wait must be re-armed")
	}
	if strings.Contains(screen(m), "hello") {
		t.Fatal("text painted before the frame tick")
	}
	update(m, eventsMsg{turn: m.turn.id, ch: m.turn.ch, events: []agent.Event{agent.TextDelta{Text: "world"}}})
	if strings.Contains(screen(m), "hello") {
		t.Fatal("second batch painted before the frame tick")
	}
	update(m, paintMsg{})
	if !strings.Contains(screen(m), "hello world") {
		t.Fatalf("frame tick did not paint:\n%s", screen(m))
	}
	// A key paints at once.
	typeText(m, "z")
	if !strings.Contains(screen(m), "› z") {
		t.Fatalf("key not painted at once:\n%s", screen(m))
	}
}

func TestMarkdownAnswer(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	submit(m, "explain")
	events(t, m, agent.TextDelta{Text: "# Title\n\nSome **bold** text.\n\n```go\nfunc main() {}\n"})
	s := screen(m)
	if !strings.Contains(s, "func main() {}") {
		t.Fatalf("open code fence not shown as it streams:\n%s", s)
	}
	events(t, m, agent.TextDelta{Text: "```\n"}, agent.AssistantDone{Text: "x", Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	s = screen(m)
	if strings.Contains(s, "**bold**") || !strings.Contains(s, "bold") {
		t.Fatalf("markdown not rendered:\n%s", s)
	}
	if strings.Contains(s, "```") {
		t.Fatalf("code fence markers shown:\n%s", s)
	}
}
