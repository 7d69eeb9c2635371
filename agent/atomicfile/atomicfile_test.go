package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tick-agent/tick/agent/atomicfile"
)

func TestWritePrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "tick", "file.json")
	for _, content := range []string{"first", "second, longer than the first"} {
		if err := atomicfile.WritePrivate(path, []byte(content)); err != nil {
			t.Fatalf("WritePrivate: %v", err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read back %q, %v; want %q", got, err, content)
		}
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, %v; want 0600", st.Mode().Perm(), err)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, %v; want 0700", st.Mode().Perm(), err)
	}
	ents, _ := os.ReadDir(filepath.Dir(path))
	if len(ents) != 1 {
		t.Errorf("the directory holds %d entries, want only the file (no temporary left)", len(ents))
	}
}

func TestWritePrivateKeepsOldOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "file")
	if err := atomicfile.WritePrivate(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	// A directory where the file should go: the rename fails.
	bad := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(bad, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.WritePrivate(bad, []byte("new")); err == nil {
		t.Fatal("WritePrivate over a non-empty directory succeeded")
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("the other file changed to %q", got)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("%d entries left in the directory, want 2 (no temporary)", len(ents))
	}
}
