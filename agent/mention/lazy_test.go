package mention

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestLazy: nothing is indexed before the first call, which starts the
// walk; later calls see the files it finds.
func TestLazy(t *testing.T) {
	root := t.TempDir()
	files := Lazy(root)
	if err := os.WriteFile(filepath.Join(root, "made-after-lazy.go"), []byte("package x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		paths, done := files()
		if done {
			if !slices.Contains(paths, "made-after-lazy.go") {
				t.Fatalf("Lazy found %v; want the file made before the first call", paths)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the walk did not finish in 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
