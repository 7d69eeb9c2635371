package ui

import (
	"github.com/tick-agent/tick/ui/dialog"

	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

// fakeMCP is an MCPStatus with fixed counts.
type fakeMCP struct {
	ready, total int
	ch           chan struct{}
}

func (f *fakeMCP) Counts() (int, int) { return f.ready, f.total }
func (f *fakeMCP) Report() string {
	return "everything  ready  stdio  node index.js\n  tools: mcp__everything__echo"
}
func (f *fakeMCP) Updates() <-chan struct{} { return f.ch }

func customModel(t *testing.T, cfg Config) (*Model, *scriptAgent) {
	t.Helper()
	a := &scriptAgent{}
	cfg.Agent = a
	mv := New(cfg)
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	return m, a
}

func TestCustomCommandSendsItsPrompt(t *testing.T) {
	review := CustomCommand{Name: "review", Description: "Review a file", Expand: func(args string) string { return "Review " + strings.TrimSpace(args) + " please" }}
	m, a := customModel(t, Config{Custom: []CustomCommand{review}})
	tests := []struct{ typed, want string }{
		{"/review main.go", "Review main.go please"},
		{"/review", "Review  please"},
		{"/Review a.go b.go", "Review a.go b.go please"},
	}
	for i, tc := range tests {
		submit(m, tc.typed)
		prompts := a.prompts()
		if len(prompts) != i+1 || prompts[i] != tc.want {
			t.Fatalf("after %q prompts are %q, want last %q", tc.typed, prompts, tc.want)
		}
		endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	}
	typeText(m, "/rev")
	if s := screen(m); !strings.Contains(s, "/review") || !strings.Contains(s, "Review a file") {
		t.Fatalf("the / completion does not describe /review:\n%s", s)
	}
}

func TestCustomCommandWaitsForTheTurn(t *testing.T) {
	m, a := customModel(t, Config{Custom: []CustomCommand{{Name: "go", Expand: func(string) string { return "go on" }}}})
	submit(m, "first")
	submit(m, "/go now")
	if p := a.prompts(); len(p) != 1 {
		t.Fatalf("prompts %q: a custom command started a turn while one ran", p)
	}
	if s := screen(m); !strings.Contains(s, "/go waits for the running turn") {
		t.Fatalf("no notice:\n%s", s)
	}
}

func TestBuiltinsCannotBeShadowed(t *testing.T) {
	m, a := customModel(t, Config{Custom: []CustomCommand{{Name: "help", Expand: func(string) string { return "custom help" }}}})
	if s := screen(m); !strings.Contains(s, "your command /help is not available") {
		t.Fatalf("no notice about the shadowed command:\n%s", s)
	}
	submit(m, "/help")
	if len(a.prompts()) != 0 || overlayOf[*dialog.Help](m) == nil {
		t.Fatalf("/help ran the custom command (prompts %q)", a.prompts())
	}
}

func TestNonCommandsStillSend(t *testing.T) {
	m, a := customModel(t, Config{Custom: []CustomCommand{{Name: "review", Expand: func(string) string { return "x" }}}})
	submit(m, "/usr/bin is missing")
	if p := a.prompts(); len(p) != 1 || p[0] != "/usr/bin is missing" {
		t.Fatalf("prompts %q", p)
	}
}

func TestMCPStatusBarAndCommand(t *testing.T) {
	f := &fakeMCP{ready: 1, total: 2, ch: make(chan struct{}, 1)}
	m, _ := customModel(t, Config{MCP: f})
	if st := lastLine(screen(m)); !strings.Contains(st, "mcp 1/2") {
		t.Fatalf("status bar %q lacks mcp 1/2", st)
	}
	f.ready = 2
	f.ch <- struct{}{}
	msg := m.Init()()
	if cmd := update(m, msg); cmd == nil {
		t.Fatal("the MCP watch was not re-armed")
	}
	if st := lastLine(screen(m)); strings.Contains(st, "mcp") {
		t.Fatalf("status bar %q still shows mcp when all are ready", st)
	}
	submit(m, "/mcp")
	if s := screen(m); !strings.Contains(s, "tools: mcp__everything__echo") {
		t.Fatalf("/mcp did not list the servers:\n%s", s)
	}
}
