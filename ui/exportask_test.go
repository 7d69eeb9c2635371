package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestExportAsksBeforeReplacing: /export onto an existing file asks
// first; no leaves the file as it was, yes replaces it and keeps its
// mode. Today the file is replaced silently and made 0600.
func TestExportAsksBeforeReplacing(t *testing.T) {
	dir := t.TempDir()
	mv := New(Config{Agent: &scriptAgent{}, Model: "test-model", Workspace: dir, Dark: true})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	notes := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(notes, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(notes, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, answer := range []string{"n", "y"} {
		for _, msg := range runCmds(submit(m, "/export notes.md")) {
			update(m, msg)
		}
		if !strings.Contains(screen(m), "Replace "+notes+"?") {
			t.Fatalf("no question before replacing:\n%s", screen(m))
		}
		if b, _ := os.ReadFile(notes); string(b) != "my notes\n" {
			t.Fatalf("the file was replaced before the answer: %q", b)
		}
		pause(m)
		for _, msg := range runCmds(press(m, answer)) {
			update(m, msg)
		}
		b, _ := os.ReadFile(notes)
		fi, _ := os.Stat(notes)
		switch answer {
		case "n":
			if string(b) != "my notes\n" || !strings.Contains(screen(m), "/export cancelled") {
				t.Fatalf("no: file %q, screen:\n%s", b, screen(m))
			}
		case "y":
			if !strings.HasPrefix(string(b), "# tick conversation") || !strings.Contains(screen(m), "(replaced)") {
				t.Fatalf("yes: file %q, screen:\n%s", b, screen(m))
			}
			if fi.Mode().Perm() != 0o644 {
				t.Errorf("the replaced file's mode is %v, want 0644 kept", fi.Mode().Perm())
			}
		}
	}
}
