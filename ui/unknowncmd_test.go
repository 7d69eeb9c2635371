package ui

import (
	"strings"
	"testing"
)

// TestUnknownCommand: a /word that is no command is not sent to the model:
// the chat says so and names the closest command, the text stays in the
// input, and enter again sends it as typed. A word with a second "/" is a
// path and is sent at once.
func TestUnknownCommand(t *testing.T) {
	tests := []struct {
		name, typed string
		wantNote    string // "" when sent at once
	}{
		{"unknown word", "/foo", "unknown command /foo — enter again to send it as a message"},
		{"unknown word with text", "/foo bar baz", "unknown command /foo — enter again"},
		{"a typo names the command", "/udno 2", "did you mean /undo?"},
		{"a second typo", "/sesions", "did you mean /sessions?"},
		{"nothing close: /help", "/zzzzzz", "/help lists the commands"},
		{"a path", "/etc/hosts is wrong", ""},
		{"a path alone", "/usr/bin", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, a := newCommandModel(t)
			submit(m, tt.typed)
			if tt.wantNote == "" {
				if p := a.prompts(); len(p) != 1 || p[0] != tt.typed {
					t.Fatalf("sent %q, want %q as typed", p, tt.typed)
				}
				return
			}
			s := screen(m)
			if !strings.Contains(s, tt.wantNote) {
				t.Fatalf("the chat does not say %q:\n%s", tt.wantNote, s)
			}
			if p := a.prompts(); len(p) != 0 {
				t.Fatalf("an unknown command was sent to the model: %q", p)
			}
			if v := m.input.Value(); v != tt.typed {
				t.Fatalf("input = %q, want the text kept", v)
			}
			press(m, "enter")
			if p := a.prompts(); len(p) != 1 || p[0] != tt.typed {
				t.Fatalf("enter again sent %q, want %q", p, tt.typed)
			}
		})
	}
}

// TestUnknownCommandRefusedOnce: the second enter sends only the same
// text; a changed text is refused afresh.
func TestUnknownCommandRefusedOnce(t *testing.T) {
	m, a := newCommandModel(t)
	submit(m, "/foo")
	typeText(m, "x") // now "/foox"
	press(m, "enter")
	if p := a.prompts(); len(p) != 0 {
		t.Fatalf("a changed unknown command was sent: %q", p)
	}
	if s := screen(m); !strings.Contains(s, "unknown command /foox") {
		t.Fatalf("the changed command was not refused:\n%s", s)
	}
}
