//go:build unix

package session

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestPermissionsWithStrictUmask checks that directories and files get
// their modes whatever the umask: a umask of 0277 alone would make the new
// directories unwritable (0500) and the file read-only (0400).
func TestPermissionsWithStrictUmask(t *testing.T) {
	old := syscall.Umask(0o277)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "tick", "sessions")
	st, err := Create(dir, t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for path, want := range map[string]os.FileMode{
		filepath.Dir(dir):       0o700,
		dir:                     0o700,
		filepath.Dir(st.Path()): 0o700,
		st.Path():               0o600,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", path, got, want)
		}
	}
}
