package agent

import "testing"

// TestNotTheSandbox: a failure on a path tick cannot write either (a
// workspace mounted read-only by the user) is not blamed on the sandbox;
// one on a path tick can write is.
func TestNotTheSandbox(t *testing.T) {
	ro := func(string) bool { return false }
	rw := func(string) bool { return true }
	for _, tt := range []struct {
		name     string
		res      string
		writable func(string) bool
		want     bool
	}{
		{"git lock on a read-only mount", "fatal: Unable to create '/w/.git/index.lock': Read-only file system\nexit status 128", ro, true},
		{"git lock the sandbox keeps read-only", "fatal: Unable to create '/w/.git/index.lock': Read-only file system\nexit status 128", rw, false},
		{"redirect, relative path", "bash: line 1: out.txt: Read-only file system\nexit status 1", ro, true},
		{"touch quoted", "touch: cannot touch 'x': Permission denied\nexit status 1", rw, false},
		{"network", "curl: (7) Network is unreachable\nexit status 7", ro, false},
		{"no path named", "Read-only file system\nexit status 1", ro, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := notTheSandbox(tt.res, "/w", tt.writable); got != tt.want {
				t.Errorf("notTheSandbox = %v, want %v (paths %q)", got, tt.want, deniedPaths(tt.res))
			}
		})
	}
}

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
