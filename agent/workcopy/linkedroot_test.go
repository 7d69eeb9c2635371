package workcopy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tick-agent/tick/agent/workcopy"
)

// TestNewLinkedRoot: a workspace named through a symbolic link (cd
// ~/src/app with ~/src a link) is copied whole, and a change in the copy
// comes back. Today the walk stops at the root, a link: the task gets an
// empty copy, and a file it writes that the workspace has conflicts.
func TestNewLinkedRoot(t *testing.T) {
	real := t.TempDir()
	if err := os.WriteFile(filepath.Join(real, "a.txt"), []byte("v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(t.TempDir(), "app")
	if err := os.Symlink(real, ws); err != nil {
		t.Fatal(err)
	}
	c, err := workcopy.New(ws, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(c.Dir, "a.txt")); err != nil || string(b) != "v1\n" {
		t.Fatalf("the copy's a.txt: %q, %v", b, err)
	}
	if err := os.WriteFile(filepath.Join(c.Dir, "a.txt"), []byte("v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	applied, conflicts, err := c.Apply(nil)
	if err != nil || len(conflicts) > 0 || len(applied) != 1 || applied[0].Kind != "modified" {
		t.Fatalf("Apply: applied %v, conflicts %v, %v", applied, conflicts, err)
	}
	if b, _ := os.ReadFile(filepath.Join(real, "a.txt")); string(b) != "v2\n" {
		t.Errorf("the workspace's a.txt: %q", b)
	}
}
