package mcptest

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// lockDir takes an exclusive lock on dir's lock file, for one npm install
// at a time across processes, and returns its release.
func lockDir(t testing.TB, dir string) func() {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatalf("open the install lock: %v", err)
	}
	h := windows.Handle(f.Fd())
	var ol windows.Overlapped
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol); err != nil {
		f.Close()
		t.Fatalf("lock %s: %v", f.Name(), err)
	}
	return func() {
		_ = windows.UnlockFileEx(h, 0, 1, 0, &ol)
		f.Close()
	}
}
