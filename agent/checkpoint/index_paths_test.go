package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestParseIndexPaths: a version 2 index's paths are each entry's own
// (only version 4 compresses a path against the one before); before, every
// path was prefixed with all the previous ones, so the memory of parsing
// grew with the square of the entries (3.7 GB at 20k files, the OOM
// killer at 100k).
func TestParseIndexPaths(t *testing.T) {
	s, ws := open(t)
	for i := range 50 {
		write(t, ws, fmt.Sprintf("d/f%02d.txt", i), "x\n")
	}
	userRepo(t, ws)
	b, err := os.ReadFile(filepath.Join(ws, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	ents, _, err := parseIndex(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 50 {
		t.Fatalf("%d entries, want 50", len(ents))
	}
	for i, e := range ents {
		if want := fmt.Sprintf("d/f%02d.txt", i); e.path != want {
			t.Fatalf("entry %d is %q, want %q", i, e.path, want)
		}
	}
	if _, err := s.Save(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
}
