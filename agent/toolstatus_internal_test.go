package agent

import (
	"testing"

	"github.com/tick-agent/tick/agent/sandbox"
)

// TestSandboxBlame: the sandbox is blamed only on evidence — a denied
// path the policy does not allow (and tick could write), no network, a
// seccomp kill — never on words in the output. A failure on a path tick
// cannot write either is not the sandbox's.
func TestSandboxBlame(t *testing.T) {
	ro := func(string) bool { return false }
	rw := func(string) bool { return true }
	ws := sandbox.Policy{Mode: sandbox.WorkspaceWrite, Workspace: "/w", TempDir: "/tmp/t"}
	readOnly := ws
	readOnly.Mode = sandbox.ReadOnly
	for _, tt := range []struct {
		name     string
		res      string
		p        sandbox.Policy
		writable func(string) bool
		want     blame
	}{
		{"git lock on a read-only mount", "fatal: Unable to create '/w/.git/index.lock': Read-only file system\nexit status 128", ws, ro, blameNotSandbox},
		{"git lock the sandbox keeps read-only", "fatal: Unable to create '/w/.git/index.lock': Read-only file system\nexit status 128", ws, rw, blameSandbox},
		{"redirect outside, relative path", "bash: line 1: ../out.txt: Read-only file system\nexit status 1", ws, ro, blameNotSandbox},
		{"write in the workspace the policy allows", "touch: cannot touch 'x': Permission denied\nexit status 1", ws, rw, blameNone},
		{"write in the workspace, read-only mode", "touch: cannot touch 'x': Permission denied\nexit status 1", readOnly, rw, blameSandbox},
		{"write outside the workspace", "touch: cannot touch '/home/u/x': Permission denied\nexit status 1", ws, rw, blameSandbox},
		{"go error style outside", "open /etc/x.conf: permission denied\nexit status 1", ws, rw, blameSandbox},
		{"a failing test that says permission denied", "--- FAIL: TestAccess\n    want error \"permission denied\", got nil\nFAIL\nexit status 1", ws, rw, blameNone},
		{"a test's own file without permission", "open /w/testdata/locked: permission denied\nexit status 1", ws, rw, blameNone},
		{"network", "curl: (7) Network is unreachable\nexit status 7", ws, ro, blameSandbox},
		{"network in full access", "curl: (7) Network is unreachable\nexit status 7", sandbox.Policy{Mode: sandbox.FullAccess, Workspace: "/w"}, rw, blameNone},
		{"seccomp", "x\nkilled by signal: bad system call", ws, rw, blameSandbox},
		{"no path named", "Read-only file system\nexit status 1", ws, rw, blameNone},
		{"succeeded", "touch: cannot touch '/home/u/x': Permission denied\nexit status 0", ws, rw, blameNone},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := sandboxBlame(tt.res, "/w", tt.p, tt.writable); got != tt.want {
				t.Errorf("sandboxBlame = %v, want %v (paths %q)", got, tt.want, deniedPaths(tt.res))
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
