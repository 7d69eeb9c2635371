//go:build unix

package mention

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIndexSpecialGitignore is issue 18 item 4 for the @ picker: a
// .gitignore that is a named pipe (the walk would wait for a writer
// forever) or a link to /dev/zero (it would read without end) is skipped
// and named, and the walk finishes.
func TestIndexSpecialGitignore(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.go", "package a\n")
	write(t, root, "sub/b.go", "package b\n")
	if err := syscall.Mkfifo(filepath.Join(root, ".gitignore"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(root, "sub", ".gitignore")); err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root)
	deadline := time.Now().Add(20 * time.Second)
	for {
		paths, done := ix.Paths()
		if done {
			if !slices.Contains(paths, "a.go") || !slices.Contains(paths, "sub/b.go") {
				t.Errorf("paths %v, want a.go and sub/b.go", paths)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the walk blocked on a special .gitignore")
		}
		time.Sleep(10 * time.Millisecond)
	}
	skipped := strings.Join(ix.Skipped(), "\n")
	for _, want := range []string{".gitignore: not a regular file (a named pipe)", filepath.Join("sub", ".gitignore") + ": it leads outside"} {
		if !strings.Contains(skipped, want) {
			t.Errorf("Skipped lacks %q:\n%s", want, skipped)
		}
	}
}

// TestExpandSpecialFile: a mentioned named pipe is not attached, and the
// prompt does not wait for it.
func TestExpandSpecialFile(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, root, "ok.txt", "fine\n")
	resolve := func(p string) (string, error) { return filepath.Join(root, p), nil }
	done := make(chan struct{})
	var att []Attached
	go func() { defer close(done); _, att = Expand(context.Background(), "see @pipe and @ok.txt", resolve) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Expand blocked on a named pipe")
	}
	if len(att) != 1 || att[0].Path != "ok.txt" {
		t.Errorf("attached %+v, want only ok.txt", att)
	}
}
