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

// gitIn runs the user's git in dir (not the shadow repository), as a
// command of the model or the user would.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(gitlessEnv(), "GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@x", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@x")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v in %s: %v: %s", args, dir, err, out)
	}
}

// TestFIFOReplacingAFileDoesNotStopUndo: a tracked file replaced by a
// named pipe made every later snapshot, and so every undo, fail ("git
// add: can only add regular files"); it is left out with a note, and the
// undo brings the file back.
func TestFIFOReplacingAFileDoesNotStopUndo(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "pipe", "a regular file\n")
	write(t, ws, "other.txt", "one\n")
	cp := save(t, s, "before")
	os.Remove(filepath.Join(ws, "pipe"))
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, ws, "other.txt", "two\n")
	later, err := s.Save(ctx, "after")
	if err != nil {
		t.Fatalf("a snapshot with a FIFO in place of a file: %v", err)
	}
	if len(later.Skipped) != 1 || later.Skipped[0].Path != "pipe" || !strings.Contains(later.Skipped[0].Why, "named pipe") {
		t.Errorf("skipped = %v, want the pipe named", later.Skipped)
	}
	if _, err := s.Restore(ctx, cp.ID); err != nil {
		t.Fatalf("undo with a FIFO in place of a file: %v", err)
	}
	if got := read(t, ws, "pipe"); got != "a regular file\n" {
		t.Errorf("pipe after undo = %q", got)
	}
	if got := read(t, ws, "other.txt"); got != "one\n" {
		t.Errorf("other.txt after undo = %q", got)
	}
}

// TestUserExcludesHonoured: files the user's git ignores through
// .git/info/exclude or the global excludes file are neither copied into
// the store nor deleted by an undo as "created since".
func TestUserExcludesHonoured(t *testing.T) {
	home := t.TempDir()
	write(t, home, ".gitconfig", "[core]\n\texcludesFile = "+filepath.Join(home, "global-ignore")+"\n")
	write(t, home, "global-ignore", "*.swp\n")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	ctx := context.Background()
	s, ws := open(t)
	gitIn(t, ws, "init", "-q")
	write(t, ws, ".git/info/exclude", "secret.env\nlocal/\n")
	write(t, ws, "a.txt", "a\n")
	cp := save(t, s, "before")
	write(t, ws, "secret.env", "TOKEN=1\n")
	write(t, ws, "local/notes.md", "mine\n")
	write(t, ws, ".a.txt.swp", "swap\n")
	write(t, ws, "b.txt", "b\n")
	cs, err := s.Changes(ctx, cp.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Path != "b.txt" {
		t.Errorf("changes = %v, want only b.txt (the excluded files are not the store's)", cs)
	}
	if _, err := s.Restore(ctx, cp.ID); err != nil {
		t.Fatal(err)
	}
	for _, kept := range []string{"secret.env", "local/notes.md", ".a.txt.swp"} {
		if read(t, ws, kept) == "<missing>" {
			t.Errorf("the undo deleted %s, which the user's git ignores", kept)
		}
	}
	if read(t, ws, "b.txt") != "<missing>" {
		t.Error("b.txt survived the undo")
	}
	out, err := s.run(ctx, nil, "rev-list", "--objects", "--all")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "secret.env") {
		t.Errorf("an excluded file was copied into the store:\n%s", out)
	}
}
