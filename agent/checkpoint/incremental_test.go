package checkpoint

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestIncrementalTypeChanges: a later snapshot stages tracked files and
// untracked ones separately (add -u, then the untracked files by name);
// a file that became a directory, a directory that became a file, a new
// file beside an untracked FIFO and a deleted file are all recorded, and
// undoing brings each back byte for byte.
func TestIncrementalTypeChanges(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "a", "was a file\n")
	write(t, ws, "b/inner.txt", "in a directory\n")
	write(t, ws, "gone.txt", "deleted later\n")
	write(t, ws, "same.txt", "unchanged\n")
	cp := save(t, s, "before")
	for _, p := range []string{"a", "b", "gone.txt"} {
		if err := os.RemoveAll(filepath.Join(ws, p)); err != nil {
			t.Fatal(err)
		}
	}
	write(t, ws, "a/now.txt", "a became a directory\n")
	write(t, ws, "b", "b became a file\n")
	write(t, ws, "new dir/new [file]*.txt", "new\n")
	if err := syscall.Mkfifo(filepath.Join(ws, "new dir", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := save(t, s, "after")
	if _, err := s.Restore(ctx, cp.ID); err != nil {
		t.Fatalf("undo to before: %v", err)
	}
	for p, c := range map[string]string{"a": "was a file\n", "b/inner.txt": "in a directory\n", "gone.txt": "deleted later\n", "same.txt": "unchanged\n", "new dir/new [file]*.txt": "<missing>"} {
		if got := read(t, ws, p); got != c {
			t.Errorf("%s after the undo = %q, want %q", p, got, c)
		}
	}
	if _, err := s.Restore(ctx, later.ID); err != nil {
		t.Fatalf("redo to after: %v", err)
	}
	for p, c := range map[string]string{"a/now.txt": "a became a directory\n", "b": "b became a file\n", "gone.txt": "<missing>", "new dir/new [file]*.txt": "new\n"} {
		if got := read(t, ws, p); got != c {
			t.Errorf("%s after going forward again = %q, want %q", p, got, c)
		}
	}
}

// TestCheckpointSurvivesGC: the ref Save writes itself (no update-ref)
// is one git reads: the commit is named by refs/tick/<id> and outlives a
// gc that prunes everything unreachable.
func TestCheckpointSurvivesGC(t *testing.T) {
	s, ws := open(t)
	write(t, ws, "f.txt", "kept\n")
	cp := save(t, s, "one")
	write(t, ws, "f.txt", "changed\n")
	save(t, s, "two")
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Env = append(gitlessEnv(), "GIT_DIR="+s.dir, "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := git("rev-parse", "refs/tick/"+cp.ID); got != cp.ID {
		t.Fatalf("refs/tick/%s names %q", cp.ID, got)
	}
	git("gc", "-q", "--prune=now")
	if got := git("show", cp.ID+":f.txt"); got != "kept" {
		t.Errorf("after gc the checkpoint's f.txt = %q", got)
	}
}
