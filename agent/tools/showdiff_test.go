package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShowDiffBounded: a rewrite of a large file hands over at most
// MaxShownDiff bytes of diff, cut at a line end and saying how much is
// left out; a small edit hands over its whole diff; without WithDiff
// nothing is reported and nothing fails.
func TestShowDiffBounded(t *testing.T) {
	dir := t.TempDir()
	ws, err := NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "line %05d of the old file, long enough to make a big diff\n", i)
	}
	big := b.String()
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	ctx := WithDiff(context.Background(), func(d string) { got = append(got, d) })
	w := NewWriteFile(ws)
	args, _ := json.Marshal(map[string]string{"path": "big.txt", "content": strings.ReplaceAll(big, "00 of the old", "00 of the new")})
	if _, err := w.Run(ctx, args); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0]) > MaxShownDiff+100 || !strings.HasSuffix(got[0], "more lines)\n") {
		t.Fatalf("the diff of a big rewrite: %d reports, %d bytes, ends %q", len(got), len(got[0]), got[0][max(len(got[0])-60, 0):])
	}
	got = nil
	e := NewEditFile(ws)
	if err := os.WriteFile(filepath.Join(dir, "s.txt"), []byte("x\ny\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	small, _ := json.Marshal(map[string]any{"path": "s.txt", "old_string": "y", "new_string": "z"})
	if _, err := e.Run(ctx, small); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "--- a/s.txt\n+++ b/s.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n" {
		t.Fatalf("the edit's diff: %q", got)
	}
	if _, err := e.Run(context.Background(), []byte(`{"path":"s.txt","old_string":"z","new_string":"w"}`)); err != nil {
		t.Fatalf("an edit without WithDiff: %v", err)
	}
}
