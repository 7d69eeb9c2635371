package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGitMetaCoversConfigWorktree guards the identity of a .git directory
// (GitMeta.identify): git reads config.worktree when
// extensions.worktreeConfig is on, and core.fsmonitor or core.hooksPath
// set there run with the user's rights like the config's. A change to it
// alone is a change of the repository, the workspace's or a nested one
// (Changed: what a command can do where .git cannot be made read-only).
// Leaving config.worktree out of the hash makes both go unseen.
func TestGitMetaCoversConfigWorktree(t *testing.T) {
	ws := t.TempDir()
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(ws, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/config", "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = true\n")
	write(".git/HEAD", "ref: refs/heads/main\n")
	write("sub/.git/config", "[core]\n")
	g := NewGitMeta(ws)

	g.Before()
	write(".git/config.worktree", "[core]\n\tfsmonitor = ./payload.sh\n") // in place, as without namespaces
	if rep := g.After(); !slices.Equal(rep.Changed, []string{".git"}) {
		t.Errorf("config.worktree written in place: report %+v, want .git changed", rep)
	}

	g.Before()
	write("sub/.git/config.worktree", "[core]\n\thooksPath = ../evil\n")
	if rep := g.After(); !slices.Equal(rep.Changed, []string{"sub/.git"}) {
		t.Errorf("a nested repository's config.worktree written: report %+v, want sub/.git changed", rep)
	}
}
