package app

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tick-agent/tick/ui"
)

// fakeXclip puts an xclip on PATH that answers TARGETS with targets and
// image/png with png, as the real one does with -selection clipboard.
func fakeXclip(t *testing.T, targets string, png []byte) {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "image.out"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\ncase \"$*\" in\n" +
		"*TARGETS*) printf '%s\\n' '" + targets + "' ;;\n" +
		"*image/png*) cat '" + filepath.Join(bin, "image.out") + "' ;;\n" +
		"*) exit 1 ;;\nesac\n"
	if err := os.WriteFile(filepath.Join(bin, "xclip"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin:/bin")
}

func TestClipboardImage(t *testing.T) {
	png := append([]byte(nil), pngMagic...)
	png = append(png, "rest of the image"...)
	env := func(k string) string {
		if k == "DISPLAY" {
			return ":0"
		}
		return ""
	}
	for _, tt := range []struct {
		name    string
		targets string
		data    []byte
		saved   bool
	}{
		{"an image", "TARGETS\nimage/png\ntext/plain", png, true},
		{"text only", "TARGETS\nUTF8_STRING", png, false},
		{"not a PNG after all", "image/png", []byte("<html>"), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fakeXclip(t, tt.targets, tt.data)
			dir := filepath.Join(t.TempDir(), "pasted")
			path, err := clipboardImage(dir, env)()
			if err != nil {
				t.Fatal(err)
			}
			if !tt.saved {
				if path != "" {
					t.Errorf("saved %s, want nothing", path)
				}
				return
			}
			if filepath.Dir(path) != dir || !strings.HasSuffix(path, ".png") {
				t.Errorf("saved as %s, want a .png in %s", path, dir)
			}
			got, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(got, tt.data) {
				t.Errorf("saved %q, %v", got, err)
			}
			if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, %v; want 0600", st.Mode(), err)
			}
		})
	}
	t.Run("no tool", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		path, err := clipboardImage(t.TempDir(), env)()
		if path != "" || !errors.Is(err, ui.ErrNoClipboardTool) || !strings.Contains(err.Error(), "install xclip") {
			t.Errorf("got %q, %v; want no path and which tool to install", path, err)
		}
	})
	t.Run("no display", func(t *testing.T) {
		_, err := clipboardImage(t.TempDir(), func(string) string { return "" })()
		if runtime.GOOS != "darwin" && !errors.Is(err, ui.ErrNoClipboardTool) {
			t.Errorf("got %v; want no clipboard tool", err)
		}
	})
}
