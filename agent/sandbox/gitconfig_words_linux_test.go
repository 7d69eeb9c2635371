package sandbox

import (
	"slices"
	"testing"
)

// TestGitConfigFsmonitorScript: git runs core.fsmonitor through the
// shell, so `sh tools/fsmon.sh` or `node scripts/watch.js --x` runs a
// workspace script that is not the first word; it must be protected like
// a program named first, its words read as the shell reads them (a
// quoted path with a space, a ; after it). Today a quoted path is split
// at its space and a ; stays on the word, so neither is protected.
func TestGitConfigFsmonitorScript(t *testing.T) {
	for _, tt := range []struct{ value, want string }{
		{"sh tools/fsmon.sh", "tools/fsmon.sh"},
		{"node scripts/watch.js --x", "scripts/watch.js"},
		{"tools/fsmon.sh --fast", "tools/fsmon.sh"},
		{"sh tools/fsmon.sh; true", "tools/fsmon.sh"},
		{`sh "tools/my fsmon.sh"`, "tools/my fsmon.sh"},
	} {
		ws := t.TempDir()
		gitIn(t, ws, "init", "-q")
		gitIn(t, ws, "config", "core.fsmonitor", tt.value)
		if got := GitConfigPaths(ws); !slices.Contains(got, tt.want) {
			t.Errorf("core.fsmonitor = %q: GitConfigPaths = %q, want %s among them", tt.value, got, tt.want)
		}
	}
}
