package agent

import "testing"

// TestExitCodeOf reads the status line of a bash result.
func TestExitCodeOf(t *testing.T) {
	for _, tt := range []struct {
		tool, out string
		want      int // -1: nil
	}{
		{"bash", "hi\nexit status 0", 0},
		{"bash", "exit status 128", 128},
		{"bash", "x\nkilled by signal: killed", 137},
		{"bash", "Error: bad arguments", -1},
		{"bash", "Error: release not found\nexit status 1", 1},
		{"read_file", "exit status 3", -1},
	} {
		got := ExitCodeOf(tt.tool, tt.out)
		if (got == nil) != (tt.want < 0) || (got != nil && *got != tt.want) {
			t.Errorf("ExitCodeOf(%q, %q) = %v, want %d", tt.tool, tt.out, got, tt.want)
		}
	}
}
