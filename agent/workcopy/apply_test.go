package workcopy_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/workcopy"
)

// leftovers lists the staged or set-aside entries Apply left under dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tick-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// refusedNaming checks that err refuses the whole patch naming path.
func refusedNaming(t *testing.T, err error, path string) {
	t.Helper()
	var refused *workcopy.RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), path) {
		t.Errorf("Apply = %v, want the whole patch refused, naming %s", err, path)
	}
}

// TestMergeThroughLinkIntoGitRefused: another task's patch left d -> .git
// in the workspace after this copy was made; this task wrote
// d/hooks/pre-commit and d/hooks/post-index-change (a new directory in its
// copy). Applying must not write them into the real .git/hooks: the user's
// next git status would run them. The whole patch is refused (a.txt too)
// and the copy kept.
func TestMergeThroughLinkIntoGitRefused(t *testing.T) {
	ws := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write(t, filepath.Join(ws, "a.txt"), "a")
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(ws, "d")); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	for _, hook := range []string{"pre-commit", "post-index-change"} {
		p := filepath.Join(c.Dir, "d", "hooks", hook)
		write(t, p, "#!/bin/sh\ntouch "+marker+"\n")
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "A")
	applied, _, err := c.Apply(nil)
	refusedNaming(t, err, "d/hooks/post-index-change")
	if len(applied) != 0 || read(t, filepath.Join(ws, "a.txt")) != "a" {
		t.Errorf("applied %v, a.txt = %q: want nothing applied", applied, read(t, filepath.Join(ws, "a.txt")))
	}
	for _, hook := range []string{"pre-commit", "post-index-change"} {
		if _, err := os.Lstat(filepath.Join(ws, ".git", "hooks", hook)); err == nil {
			t.Errorf(".git/hooks/%s was written through the link", hook)
		}
	}
	st := exec.Command("git", "status")
	st.Dir = ws
	_ = st.Run()
	if _, err := os.Stat(marker); err == nil {
		t.Error("the user's git status ran a hook the task wrote")
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "d", "hooks", "pre-commit")); err != nil {
		t.Errorf("the copy was not kept: %v", err)
	}
}

// TestParentChangedKindRefused: a directory of the workspace became a
// link while the task ran (into .git, or to a sibling of the workspace
// whose name starts with the workspace's: ws-evil next to ws). The patch
// writing beneath it is refused; nothing lands in the link's target.
func TestParentChangedKindRefused(t *testing.T) {
	for _, tc := range []struct{ name, target string }{
		{"into git metadata", ".git"},
		{"to the sibling ws-evil", "../ws-evil"},
		{"to a file", "a.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			ws := filepath.Join(top, "ws")
			write(t, filepath.Join(ws, "a.txt"), "a")
			write(t, filepath.Join(ws, "dir", "c.txt"), "c")
			write(t, filepath.Join(ws, ".git", "HEAD"), "ref: refs/heads/main")
			if err := os.Mkdir(filepath.Join(top, "ws-evil"), 0o755); err != nil {
				t.Fatal(err)
			}
			c, err := workcopy.New(ws, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(ws, "dir")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(tc.target, filepath.Join(ws, "dir")); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(c.Dir, "dir", "hooks", "pre-commit"), "x")
			write(t, filepath.Join(c.Dir, "dir", "new.txt"), "x")
			_, _, err = c.Apply(nil)
			refusedNaming(t, err, "dir/new.txt")
			for _, p := range []string{"ws-evil/new.txt", "ws-evil/hooks", "ws/.git/new.txt", "ws/.git/hooks"} {
				if _, err := os.Lstat(filepath.Join(top, p)); err == nil {
					t.Errorf("%s was written through the link", p)
				}
			}
		})
	}
}

// TestNestedGitMetaNeverApplied: a nested repository the task made in its
// copy never comes back with its patch.
func TestNestedGitMetaNeverApplied(t *testing.T) {
	ws := workspace(t)
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// now() never lists .git entries; a nested one is refused all the same.
	write(t, filepath.Join(c.Dir, "sub", ".git", "config"), "[core]\n\tfsmonitor = touch x\n")
	write(t, filepath.Join(c.Dir, "ok.txt"), "ok")
	applied, conflicts, err := c.Apply(nil)
	if err != nil || len(conflicts) > 0 {
		t.Fatalf("Apply = %v, %v", conflicts, err)
	}
	if _, err := os.Lstat(filepath.Join(ws, "sub", ".git")); err == nil {
		t.Errorf("a nested .git was applied (%v)", applied)
	}
}

// TestStopBeforePlacingRollsBack: a stop while the patch is staged rolls
// it back: nothing applied, no staged file or new directory left.
func TestStopBeforePlacingRollsBack(t *testing.T) {
	ws := workspace(t)
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "a.txt"), "A")
	write(t, filepath.Join(c.Dir, "new", "deep", "d.txt"), "d")
	stop := make(chan struct{})
	close(stop)
	applied, _, err := c.Apply(stop)
	if !errors.Is(err, workcopy.ErrRolledBack) || len(applied) != 0 {
		t.Fatalf("Apply = %v, %v; want rolled back", applied, err)
	}
	if read(t, filepath.Join(ws, "a.txt")) != "a" {
		t.Error("a.txt changed")
	}
	if _, err := os.Lstat(filepath.Join(ws, "new")); err == nil {
		t.Error("a directory of the patch was left")
	}
	if left := leftovers(t, ws); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestApplyKeepsModesAndLeavesNothing: applied files have the copy's
// modes (a link stays a link) and no staged or set-aside entry remains.
func TestApplyKeepsModesAndLeavesNothing(t *testing.T) {
	ws := workspace(t)
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "run.sh"), "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(c.Dir, "run.sh"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(c.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "b.txt"), "B")
	if _, _, err := c.Apply(nil); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(ws, "run.sh")); err != nil || info.Mode().Perm() != 0o750 {
		t.Errorf("run.sh: %v, %v; want mode 0750", info, err)
	}
	if target, err := os.Readlink(filepath.Join(ws, "link")); err != nil || target != "a.txt" {
		t.Errorf("link -> %q, %v", target, err)
	}
	if read(t, filepath.Join(ws, "b.txt")) != "B" {
		t.Error("b.txt not applied")
	}
	if left := leftovers(t, ws); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}
