package sandbox

import (
	"os/exec"
	"testing"
)

// BenchmarkGitConfigPaths reads the paths of a fresh repository's config,
// which names none (what most workspaces have): one git process.
func BenchmarkGitConfigPaths(b *testing.B) {
	ws := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	for b.Loop() {
		if got := GitConfigPaths(ws); len(got) != 0 {
			b.Fatalf("paths %v", got)
		}
	}
}
