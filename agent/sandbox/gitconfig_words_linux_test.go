package sandbox

import (
	"slices"
	"testing"
)

// TestGitConfigFsmonitorScript: git runs core.fsmonitor through the
// shell, so `sh tools/fsmon.sh` or `node scripts/watch.js --x` runs a
// workspace script that is not the first word; it must be protected like
// a program named first. Today only the first word ("sh", "node") is
// taken, and the script stays writable to sandboxed commands.
func TestGitConfigFsmonitorScript(t *testing.T) {
	for _, tt := range []struct{ value, want string }{
		{"sh tools/fsmon.sh", "tools/fsmon.sh"},
		{"node scripts/watch.js --x", "scripts/watch.js"},
		{"tools/fsmon.sh --fast", "tools/fsmon.sh"},
	} {
		ws := t.TempDir()
		gitIn(t, ws, "init", "-q")
		gitIn(t, ws, "config", "core.fsmonitor", tt.value)
		if got := GitConfigPaths(ws); !slices.Contains(got, tt.want) {
			t.Errorf("core.fsmonitor = %q: GitConfigPaths = %q, want %s among them", tt.value, got, tt.want)
		}
	}
}
