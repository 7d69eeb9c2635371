package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRunnerCloseReleasesWatches: a task's runner (ForWorkspace) watches
// its copy's directories from its first command; Close gives the
// watches back at once, and the runner still reports what a later
// command plants (by a stat of each directory).
func TestRunnerCloseReleasesWatches(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	parent := newRunner(Policy{Mode: WorkspaceWrite, Workspace: ws}, Support{}, nil)
	r := parent.ForWorkspace(dir)
	r.git.Before()
	r.git.After()
	r.git.mu.Lock()
	watching := r.git.notify != nil
	r.git.mu.Unlock()
	if !watching {
		t.Fatal("no inotify watch after the first scan")
	}
	r.Close()
	r.git.mu.Lock()
	watching = r.git.notify != nil
	r.git.mu.Unlock()
	if watching {
		t.Fatal("the watches are still held after Close")
	}
	r.git.Before()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if rep := r.git.After(); len(rep.Planted) != 1 || rep.Planted[0] != ".git" {
		t.Errorf("after Close: planted %v, want .git", rep.Planted)
	}
}
