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
	const desc = "workspace-write: no network"
	tests := []struct {
		name, res string
		mode      sandbox.Mode
		want, not string
	}{
		{"bashrc", "bash: line 1: /home/u/.bashrc: Permission denied\nexit status 1", sandbox.WorkspaceWrite,
			"the sandbox refused a write outside the workspace, to /home/u/.bashrc (workspace-write: no network: it writes only inside the workspace)", "refused network"},
		{".git", "bash: .git/index.lock: Read-only file system\nexit status 1", sandbox.WorkspaceWrite,
			"the sandbox refused a write into .git, to /home/u/proj/.git/index.lock", "outside"},
		{"read-only", "touch: cannot touch 'made': Read-only file system\nexit status 1", sandbox.ReadOnly,
			"the sandbox refused a write to /home/u/proj/made", "outside"},
		{"network", "curl: (6) Could not resolve host: example.org\nexit status 6", sandbox.WorkspaceWrite,
			"the sandbox refused network access (workspace-write: no network)", "a write"},
		{"no sign", "Operation not permitted\nexit status 1", sandbox.WorkspaceWrite,
			"the sandbox may have refused it (workspace-write: no network)", "blocked by the sandbox"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sandboxReason(tt.res, ws, tt.mode, desc)
			if !strings.Contains(got, tt.want) || strings.Contains(got, tt.not) {
				t.Errorf("note %q, want %q and not %q", got, tt.want, tt.not)
			}
		})
	}
}
