//go:build unix

package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestQuarantineRefusesLinkOnPath: a protected path missing when a
// command started (tools/fsmon.sh, named by the git config) that the
// command "creates" by replacing its directory with a link to a
// directory outside the workspace is reported as planted; moving it
// aside must not move (and, under -p, remove) the user's file outside
// the workspace that the link makes it name.
func TestQuarantineRefusesLinkOnPath(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "fsmon.sh")
	if err := os.WriteFile(victim, []byte("the user's own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newRunner(Policy{Mode: WorkspaceWrite, Workspace: ws, Protect: []string{"tools/fsmon.sh"}}, Support{}, nil)
	r.noteAbsent(ws, r.protected())
	if err := os.Symlink(outside, filepath.Join(ws, "tools")); err != nil { // what the command did
		t.Fatal(err)
	}
	rep := r.GitChanges()
	if len(rep.Planted) != 1 || rep.Planted[0] != "tools/fsmon.sh" {
		t.Fatalf("planted %v, want tools/fsmon.sh", rep.Planted)
	}
	qs, err := Quarantine(ws, rep.Planted)
	if err == nil {
		t.Fatalf("Quarantine moved %v through the link", qs)
	}
	removeAllQ(qs)
	if b, err := os.ReadFile(victim); err != nil || string(b) != "the user's own\n" {
		t.Fatalf("the file outside the workspace: %q, %v", b, err)
	}
}

// TestQuarantineMovesAndRestores: an entry in a real directory is moved
// aside and put back; a path out of the workspace is refused.
func TestQuarantineMovesAndRestores(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "sub", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	qs, err := Quarantine(ws, []string{"sub/.git"})
	if err != nil || len(qs) != 1 {
		t.Fatalf("Quarantine: %v, %v", qs, err)
	}
	if _, err := os.Lstat(filepath.Join(ws, "sub", ".git")); !os.IsNotExist(err) {
		t.Fatalf("sub/.git still there: %v", err)
	}
	if err := qs[0].Restore(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(ws, "sub", ".git")); err != nil || !fi.IsDir() {
		t.Fatalf("sub/.git not back: %v", err)
	}
	if qs, err := Quarantine(ws, []string{"../x/.git"}); err == nil {
		t.Fatalf("Quarantine moved %v out of the workspace", qs)
	}
}

// removeAllQ removes what Quarantine moved aside, as -p does.
func removeAllQ(qs []Quarantined) {
	for _, q := range qs {
		_ = q.Remove()
	}
}
