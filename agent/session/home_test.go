package session

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMkdirUnderHome: a missing home is never created; a directory under
// an existing home, or outside it, is.
func TestMkdirUnderHome(t *testing.T) {
	root := t.TempDir()
	missing := filepath.Join(root, "nonexistent")
	if err := MkdirUnderHome(filepath.Join(missing, ".local", "state", "tick"), missing); err == nil {
		t.Error("no error for a missing home")
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatalf("the missing home was created (stat: %v)", err)
	}
	home := filepath.Join(root, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(home, ".local", "state"), filepath.Join(root, "elsewhere", "state")} {
		if err := MkdirUnderHome(dir, missing); err != nil && dir != "" {
			t.Errorf("MkdirUnderHome(%s): %v", dir, err)
		}
		if err := MkdirUnderHome(dir, home); err != nil {
			t.Errorf("MkdirUnderHome(%s): %v", dir, err)
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			t.Errorf("%s not made: %v", dir, err)
		}
	}
}
