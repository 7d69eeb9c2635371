package agent

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/sandbox"
)

// TestSandboxReasonNamesWhatWasRefused (issue 30 §10): the note on a
// blocked command names what the sandbox refused, from the policy and the
// path the command named, never one fixed phrase: `echo … >> ~/.bashrc`
// failing with "Permission denied" is a write outside the workspace, not
// "no network".
func TestSandboxReasonNamesWhatWasRefused(t *testing.T) {
	const ws = "/home/u/proj"
	rw := func(string) bool { return true }
	tests := []struct {
		name, res string
		mode      sandbox.Mode
		gitMeta   []string
		want, not string
	}{
		{"bashrc", "bash: line 1: /home/u/.bashrc: Permission denied\nexit status 1", sandbox.WorkspaceWrite, nil,
			"the sandbox refused a write outside the workspace, to /home/u/.bashrc (workspace-write: no network: it writes only inside the workspace)", "refused network"},
		{".git", "bash: .git/index.lock: Read-only file system\nexit status 1", sandbox.WorkspaceWrite, nil,
			"the sandbox refused a write into .git, to /home/u/proj/.git/index.lock", "outside"},
		{"read-only", "touch: cannot touch 'made': Read-only file system\nexit status 1", sandbox.ReadOnly, nil,
			"the sandbox refused a write to /home/u/proj/made", "outside"},
		{"network", "curl: (6) Could not resolve host: example.org\nexit status 6", sandbox.WorkspaceWrite, nil,
			"the sandbox refused network access (workspace-write: no network)", "a write"},
		{"no sign of why", "touch: cannot touch 'modules/x': Operation not permitted\nexit status 1", sandbox.WorkspaceWrite, []string{"modules"},
			"the sandbox may have refused it (workspace-write: no network)", "blocked by the sandbox"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := sandbox.Policy{Mode: tt.mode, Workspace: ws, GitMeta: tt.gitMeta}
			verdict, got := sandboxBlame(tt.res, p, rw)
			if verdict != blameSandbox || !strings.Contains(got, tt.want) || strings.Contains(got, tt.not) {
				t.Errorf("blame %v, note %q, want the sandbox blamed, %q and not %q", verdict, got, tt.want, tt.not)
			}
		})
	}
}

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
			if got, _ := sandboxBlame(tt.res, tt.p, tt.writable); got != tt.want {
				t.Errorf("sandboxBlame = %v, want %v (paths %q)", got, tt.want, deniedPaths(tt.res))
			}
		})
	}
}

// TestSandboxReasonNamesTheBlamedPath: the note names the path the
// sandbox was blamed for, not the first denied path in the output (here a
// read-only mount tick cannot write either). When the decision and the
// wording parsed the output apart, the note named the mount.
func TestSandboxReasonNamesTheBlamedPath(t *testing.T) {
	res := "cp: cannot create '/mnt/ro/x': Read-only file system\nbash: line 2: /home/u/.bashrc: Permission denied\nexit status 1"
	p := sandbox.Policy{Mode: sandbox.WorkspaceWrite, Workspace: "/home/u/proj"}
	writable := func(path string) bool { return !strings.HasPrefix(path, "/mnt/ro") }
	verdict, note := sandboxBlame(res, p, writable)
	if verdict != blameSandbox || !strings.Contains(note, "to /home/u/.bashrc") || strings.Contains(note, "/mnt/ro") {
		t.Errorf("blame %v, note %q: want the sandbox blamed for /home/u/.bashrc", verdict, note)
	}
}
