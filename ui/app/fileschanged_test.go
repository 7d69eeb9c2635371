package app

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tick-agent/tick/ui/printer"
)

// TestFilesChanged: the listing leaves git metadata out, and the
// comparison names what was added, modified and deleted, sorted.
func TestFilesChanged(t *testing.T) {
	ws := t.TempDir()
	for _, f := range []string{"keep.txt", "mod.txt", "gone.txt", ".git/HEAD", "sub/.git"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, f), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := workspaceFiles(ws)
	if _, ok := before[".git/HEAD"]; ok || len(before) != 3 {
		t.Fatalf("listing %v: want the three files outside git metadata", before)
	}
	if err := os.WriteFile(filepath.Join(ws, "mod.txt"), []byte("changed, longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(ws, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "sub", "new.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(filesChanged(before, workspaceFiles(ws)))
	want := fmt.Sprint([]printer.FileChange{{Path: "gone.txt", Kind: printer.FileDeleted}, {Path: "mod.txt", Kind: printer.FileModified}, {Path: "sub/new.txt", Kind: printer.FileAdded}})
	if got != want {
		t.Errorf("filesChanged = %s, want %s", got, want)
	}
	if filesChanged(nil, before) != nil {
		t.Error("a listing left out (too many files) gave changes")
	}
}

// BenchmarkWorkspaceFiles is the walk a JSON -p run does before and
// after its turn, over 10,000 files in 100 directories.
func BenchmarkWorkspaceFiles(b *testing.B) {
	ws := b.TempDir()
	for d := range 100 {
		dir := filepath.Join(ws, fmt.Sprint("d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprint("f", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	for range b.N {
		if len(workspaceFiles(ws)) != 10_000 {
			b.Fatal("files missing")
		}
	}
}
