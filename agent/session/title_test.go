package session

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTitle(t *testing.T) {
	tests := []struct{ prompt, want string }{
		{"", ""},
		{"fix the   parser", "fix the parser"},
		{"Refactor the session loader so that it streams lines instead of reading the whole file", "Refactor the session loader so that it streams lines…"},
		{strings.Repeat("x", 100), strings.Repeat("x", 59) + "…"},
	}
	for _, tt := range tests {
		got := Info{FirstPrompt: tt.prompt}.Title()
		if got != tt.want {
			t.Errorf("Title(%q) = %q, want %q", tt.prompt, got, tt.want)
		}
		if n := utf8.RuneCountInString(got); n > maxTitle {
			t.Errorf("Title(%q) has %d runes", tt.prompt, n)
		}
	}
}
