package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestForWorkspaceConfinesToTheCopy: a runner for a task's copy of the
// workspace lets commands write the copy, and no longer the workspace.
func TestForWorkspaceConfinesToTheCopy(t *testing.T) {
	r, ws := testRunner(t, WorkspaceWrite)
	cp := t.TempDir()
	rc := r.ForWorkspace(cp)
	if got := rc.Policy().Workspace; got != cp {
		t.Fatalf("the copy's runner has workspace %q, want %q", got, cp)
	}
	out, code := runIn(t, rc, "", `echo ok > in-copy && echo escaped > `+filepath.Join(ws, "escaped"))
	if _, err := os.Stat(filepath.Join(cp, "in-copy")); err != nil {
		t.Errorf("a command could not write the copy (exit %d): %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(ws, "escaped")); err == nil {
		t.Error("a command confined to the copy wrote the workspace")
	}
	if code == 0 {
		t.Errorf("the write outside the copy did not fail: %s", out)
	}
}
