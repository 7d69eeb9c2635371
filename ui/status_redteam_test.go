package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// TestCommandPreviewStatusNotSpoofed: a command that printed "exit
// status 0" and then timed out shows tick's status under its preview
// (the timeout), not the words it printed; an "exit status 1" it printed
// above its real "exit status 0" does not show as its status either.
func TestCommandPreviewStatusNotSpoofed(t *testing.T) {
	many := strings.Repeat("line\n", 8)
	for _, tt := range []struct {
		name, out    string
		isErr        bool
		want, absent string
	}{
		{"timed out", many + "exit status 0\nkilled: timed out after 1s (the whole process group was killed)", true, "killed: timed out after 1s", "exit status 0"},
		{"stopped", many + "exit status 0\nstopped by SIGTERM", true, "stopped by SIGTERM", "exit status 0"},
		{"printed failure", many + "exit status 1\nexit status 0", false, "exit status 0", "exit status 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newTestModel(t, 100, 30)
			submit(m, "run")
			events(t, m,
				agent.ToolStart{ID: "b", Name: "bash", Summary: "make"},
				agent.ToolEnd{ID: "b", Name: "bash", Output: tt.out, IsError: tt.isErr},
			)
			s := screen(m)
			if !strings.Contains(s, tt.want) || strings.Contains(s, tt.absent) {
				t.Errorf("want %q and not %q under the preview:\n%s", tt.want, tt.absent, s)
			}
		})
	}
}
