package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestBinaryOutput: a command that prints binary gives the model "binary
// output, N bytes", not mangled text; text with a stray control byte or
// UTF-8 stays text.
func TestBinaryOutput(t *testing.T) {
	ws, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := NewBash(ws, Options{})
	for _, tt := range []struct {
		cmd, want string
	}{
		{`printf 'ELF\000\001\002\377\376'; head -c 1000 /dev/zero`, "(binary output, 1008 bytes"},
		{`printf 'h\303\251llo w\303\266rld\tok\n'`, "héllo wörld\tok\n"},
		{`printf 'a\001b\n'`, "ab\n"},
		{`tr -d '\000' < /dev/urandom | head -c 3000`, "(binary output, 3000 bytes"},
	} {
		args, _ := json.Marshal(map[string]string{"command": tt.cmd})
		got, err := b.Run(context.Background(), args)
		if err != nil || !strings.Contains(got, tt.want) || strings.Contains(got, "\uFFFD") {
			t.Errorf("%s:\ngot %q, %v\nwant it to contain %q", tt.cmd, got, err, tt.want)
		}
	}
}
