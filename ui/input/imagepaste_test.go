package input

import (
	"os"
	"path/filepath"
	"testing"
)

func TestImagePaste(t *testing.T) {
	ws := t.TempDir()
	for _, f := range []string{"shot.png", "sub/Pic.JPG", "notes.txt"} {
		p := filepath.Join(ws, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(t.TempDir(), "o.png")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ in, want string }{
		{filepath.Join(ws, "shot.png"), "@shot.png "},
		{"'" + filepath.Join(ws, "sub/Pic.JPG") + "'", "@sub/Pic.JPG "},
		{"file://" + filepath.Join(ws, "shot.png") + "\n", "@shot.png "},
		{"shot.png", "@shot.png "},
		{"missing.png", "missing.png"},
		{"notes.txt", "notes.txt"},
		{outside, outside},
		{"../x.png", "../x.png"},
		{"look at shot.png", "look at shot.png"},
		{"shot.png\nshot.png", "shot.png\nshot.png"},
	} {
		if got := ImagePaste(tt.in, ws); got != tt.want {
			t.Errorf("ImagePaste(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
