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

const ten = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"

// TestMergeMarksConflicts: the task's copy and the workspace both change
// after New; Merge takes each side's own changes, marks the hunks both
// changed differently, and reports what it did, per case.
func TestMergeMarksConflicts(t *testing.T) {
	type file struct{ base, ws, task *string } // nil: absent
	s := func(x string) *string { return &x }
	cases := []struct {
		name      string
		f         file
		want      *string // the workspace's file after; nil: absent
		conflicts int     // -1: applied whole; -2: kept
	}{
		{"clean hunks on both sides", file{s(ten), s(strings.Replace(ten, "2\n", "two\n", 1)), s(strings.Replace(ten, "9\n", "nine\n", 1))},
			s(strings.Replace(strings.Replace(ten, "2\n", "two\n", 1), "9\n", "nine\n", 1)), 0},
		{"one conflicting hunk", file{s(ten), s(strings.Replace(ten, "5\n", "five (user)\n", 1)), s(strings.Replace(strings.Replace(ten, "5\n", "five (task)\n", 1), "1\n", "one\n", 1))},
			s("one\n2\n3\n4\n<<<<<<< current\nfive (user)\n=======\nfive (task)\n>>>>>>> task\n6\n7\n8\n9\n10\n"), 1},
		{"no newline at the end", file{s("a\nb"), s("a\nB user"), s("a\nB task")},
			s("a\n<<<<<<< current\nB user\n=======\nB task\n>>>>>>> task\n"), 1},
		{"unchanged in the workspace", file{s(ten), s(ten), s("x\n")}, s("x\n"), -1},
		{"deleted by the task", file{s(ten), s(ten), nil}, nil, -1},
		{"deleted by the task, changed in the workspace", file{s(ten), s("user\n"), nil}, s("user\n"), -2},
		{"a new file", file{nil, nil, s("new\n")}, s("new\n"), -1},
		{"new on both sides", file{nil, s("mine\n"), s("theirs\n")},
			s("<<<<<<< current\nmine\n=======\ntheirs\n>>>>>>> task\n"), 1},
		{"deleted in the workspace, changed by the task", file{s("a\n"), nil, s("b\n")},
			s("<<<<<<< current\n=======\nb\n>>>>>>> task\n"), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			p := filepath.Join(ws, "f.txt")
			if tc.f.base != nil {
				write(t, p, *tc.f.base)
			}
			c, err := workcopy.New(ws, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Remove()
			set := func(path string, v *string) {
				if v == nil {
					_ = os.Remove(path)
					return
				}
				write(t, path, *v)
			}
			set(p, tc.f.ws)
			set(filepath.Join(c.Dir, "f.txt"), tc.f.task)
			res, err := c.Merge(nil)
			if err != nil {
				t.Fatalf("Merge: %v", err)
			}
			got, rerr := os.ReadFile(p)
			switch {
			case tc.want == nil && rerr == nil:
				t.Errorf("f.txt = %q, want it deleted", got)
			case tc.want != nil && string(got) != *tc.want:
				t.Errorf("f.txt = %q, want %q", got, *tc.want)
			}
			switch tc.conflicts {
			case -1:
				if len(res.Applied) != 1 || len(res.Merged) != 0 {
					t.Errorf("result %+v, want f.txt applied whole", res)
				}
			case -2:
				if len(res.Kept) != 1 || len(res.Applied)+len(res.Merged) != 0 {
					t.Errorf("result %+v, want f.txt kept", res)
				}
			default:
				if len(res.Merged) != 1 || res.Merged[0].Conflicts != tc.conflicts {
					t.Errorf("result %+v, want f.txt merged with %d conflicts", res, tc.conflicts)
				}
			}
			if l := leftovers(t, ws); len(l) > 0 {
				t.Errorf("left %v", l)
			}
		})
	}
}

// TestMergeRefusesBinaryWhole: a binary file changed on both sides
// cannot carry markers: the whole merge is refused, saying so, and the
// other file (clean) is not applied either.
func TestMergeRefusesBinaryWhole(t *testing.T) {
	ws := t.TempDir()
	write(t, filepath.Join(ws, "img.bin"), "\x00\x01base")
	write(t, filepath.Join(ws, "a.txt"), "a\n")
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Remove()
	write(t, filepath.Join(ws, "img.bin"), "\x00\x01user")
	write(t, filepath.Join(c.Dir, "img.bin"), "\x00\x01task")
	write(t, filepath.Join(c.Dir, "a.txt"), "A\n")
	_, err = c.Merge(nil)
	var refused *workcopy.RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "img.bin (a binary file changed on both sides") {
		t.Fatalf("Merge = %v, want the merge refused naming the binary img.bin", err)
	}
	if read(t, filepath.Join(ws, "a.txt")) != "a\n" || read(t, filepath.Join(ws, "img.bin")) != "\x00\x01user" {
		t.Error("a refused merge changed the workspace")
	}
}

// TestMergeRefusesLinkAndGit: the seams of the sandbox and the git guard:
// a task's file beneath a directory that became a link to .git in the
// workspace, or a planted .git entry, is never written by Merge; nothing
// of the patch is.
func TestMergeRefusesLinkAndGit(t *testing.T) {
	ws := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write(t, filepath.Join(ws, "a.txt"), "a\n")
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Remove()
	write(t, filepath.Join(ws, "a.txt"), "user\n")
	write(t, filepath.Join(c.Dir, "a.txt"), "task\n")
	if err := os.Symlink(".git", filepath.Join(ws, "d")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(c.Dir, "d", "hooks", "pre-commit"), "#!/bin/sh\n")
	write(t, filepath.Join(c.Dir, "sub", ".git", "config"), "[core]\n")
	_, err = c.Merge(nil)
	refusedNaming(t, err, "d/hooks/pre-commit")
	if _, err := os.Lstat(filepath.Join(ws, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("Merge wrote into .git through the link")
	}
	if _, err := os.Lstat(filepath.Join(ws, "sub", ".git")); err == nil {
		t.Error("Merge wrote the task's planted .git")
	}
	if read(t, filepath.Join(ws, "a.txt")) != "user\n" {
		t.Error("a refused merge changed a.txt")
	}
}

// TestMergeBaseOutsideCopy: the content New keeps for a merge is not in
// the copy (the task cannot shape the merge by editing it) and goes with
// Remove.
func TestMergeBaseOutsideCopy(t *testing.T) {
	ws := t.TempDir()
	write(t, filepath.Join(ws, "a.txt"), "a\n")
	parent := t.TempDir()
	c, err := workcopy.New(ws, parent)
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := c.BaseContent("a.txt"); !ok || string(b) != "a\n" {
		t.Fatalf("BaseContent = %q, %v", b, ok)
	}
	if ch, _ := c.Changes(); len(ch) != 0 {
		t.Errorf("the kept content shows as changes: %v", ch)
	}
	if err := c.Remove(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("Remove left %v", left)
	}
}
