package workcopy_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/workcopy"
)

func write(t testing.TB, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// workspace is a directory with a few files and a .git that is not copied.
func workspace(t *testing.T) string {
	ws := t.TempDir()
	write(t, filepath.Join(ws, "a.txt"), "a")
	write(t, filepath.Join(ws, "b.txt"), "b")
	write(t, filepath.Join(ws, "dir", "c.txt"), "c")
	write(t, filepath.Join(ws, ".git", "HEAD"), "ref: refs/heads/main")
	return ws
}

func TestChangesComeBackAsOnePatch(t *testing.T) {
	ws := workspace(t)
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(filepath.Join(c.Dir, ".git")); err != nil || info.IsDir() {
		t.Errorf("the copy's .git = %v, %v; want a file naming the workspace's repository, not a copy of it", info, err)
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "A")
	write(t, filepath.Join(c.Dir, "new", "d.txt"), "d")
	if err := os.Remove(filepath.Join(c.Dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(ws, "dir", "c.txt"), "changed meanwhile") // untouched by the task: no conflict
	applied, conflicts, err := c.Apply(nil)
	if err != nil || conflicts != nil {
		t.Fatalf("Apply = %v, %v", conflicts, err)
	}
	want := []workcopy.Change{{Path: "a.txt", Kind: "modified"}, {Path: "b.txt", Kind: "deleted"}, {Path: "new/d.txt", Kind: "added"}}
	if !reflect.DeepEqual(applied, want) {
		t.Errorf("applied %v, want %v", applied, want)
	}
	for path, s := range map[string]string{"a.txt": "A", "new/d.txt": "d", "dir/c.txt": "changed meanwhile"} {
		if got := read(t, filepath.Join(ws, path)); got != s {
			t.Errorf("%s = %q, want %q", path, got, s)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "b.txt")); err == nil {
		t.Error("the deleted file is still in the workspace")
	}
}

func TestConflictAppliesNothing(t *testing.T) {
	ws := workspace(t)
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "task's a")
	write(t, filepath.Join(c.Dir, "b.txt"), "task's b")
	write(t, filepath.Join(c.Dir, "e.txt"), "task's e")
	write(t, filepath.Join(ws, "b.txt"), "user's b") // changed differently meanwhile
	write(t, filepath.Join(ws, "e.txt"), "user's e") // created meanwhile
	write(t, filepath.Join(ws, "dir/c.txt"), "user") // not the task's: fine
	applied, conflicts, err := c.Apply(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(conflicts, []string{"b.txt", "e.txt"}) || applied != nil {
		t.Fatalf("conflicts %v, applied %v; want b.txt and e.txt, nothing applied", conflicts, applied)
	}
	if got := read(t, filepath.Join(ws, "a.txt")); got != "a" {
		t.Errorf("a.txt = %q: a conflicting patch was half-applied", got)
	}
	if got := read(t, filepath.Join(c.Dir, "b.txt")); got != "task's b" {
		t.Errorf("the task's copy lost its work: %q", got)
	}
}

func TestSameChangeIsNoConflict(t *testing.T) {
	ws := workspace(t)
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "same")
	write(t, filepath.Join(ws, "a.txt"), "same")
	if _, conflicts, err := c.Apply(nil); err != nil || conflicts != nil {
		t.Errorf("Apply = %v, %v; the same change twice is no conflict", conflicts, err)
	}
}

func TestLinksAreNotFollowed(t *testing.T) {
	ws := workspace(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(ws, "out")); err != nil {
		t.Fatal(err)
	}
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// In the copy the link is a link too; a task replacing it with a
	// directory of files must not write through the workspace's link.
	if err := os.Remove(filepath.Join(c.Dir, "out")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "out", "evil.txt"), "x")
	_, _, err = c.Apply(nil)
	if _, err := os.Stat(filepath.Join(outside, "evil.txt")); err == nil {
		t.Fatal("a change was written through a link out of the workspace")
	}
	var refused *workcopy.RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "out/evil.txt") {
		t.Errorf("Apply = %v, want the patch refused naming out/evil.txt", err)
	}
}

// TestGitSeesTheRepository: git in the copy sees the workspace's
// repository and the copy's changes; the .git entry is no change.
func TestGitSeesTheRepository(t *testing.T) {
	ws := t.TempDir()
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git(ws, "init", "-q")
	write(t, filepath.Join(ws, "a.txt"), "a")
	git(ws, "add", "a.txt")
	git(ws, "commit", "-qm", "one")
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "changed")
	if out := git(c.Dir, "status", "--porcelain"); !strings.Contains(out, "M a.txt") {
		t.Errorf("git status in the copy = %q, want a.txt modified", out)
	}
	changes, err := c.Changes()
	if err != nil || len(changes) != 1 || changes[0].Path != "a.txt" {
		t.Errorf("Changes = %v, %v; want a.txt alone", changes, err)
	}
}
