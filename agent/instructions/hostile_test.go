//go:build unix

package instructions

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadRefusesHostileFiles tries the attacks of issue 18 item 2 and 4:
// instruction files that are links to the process's environment (where a
// secret lives), to a file outside the repository, to /dev/zero, or are
// named pipes. None of their content may reach the prompt, Load must not
// block, and each is reported by name with the reason.
func TestLoadRefusesHostileFiles(t *testing.T) {
	// /proc/self/environ is the environment the process started with (a
	// variable set by the test would not show), so the test looks for
	// PATH's value there: any secret beside it would have leaked the same.
	secret := "PATH=" + os.Getenv("PATH")
	top := t.TempDir()
	writeFile := func(p, s string) { write(t, filepath.Join(top, p), s) }
	link := func(target, p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(top, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(top, p)); err != nil {
			t.Fatal(err)
		}
	}
	writeFile("id_rsa", "-----BEGIN OPENSSH PRIVATE KEY----- PRIVATE")
	writeFile("elsewhere/AGENTS.md", "user rules from outside the config dir: PRIVATE")
	if err := os.MkdirAll(filepath.Join(top, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	link("/proc/self/environ", "repo/AGENTS.md")
	link(filepath.Join(top, "id_rsa"), "repo/a/CLAUDE.md")
	link("/dev/zero", "repo/a/b/AGENTS.md")
	if err := os.MkdirAll(filepath.Join(top, "repo/a/b/c"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(top, "repo/a/b/c/AGENTS.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile("repo/a/b/c/d/AGENTS.md", "the good rules")
	link("../../../../../notes/rules.md", "repo/a/b/c/d/e/AGENTS.md")
	writeFile("repo/notes/rules.md", "linked rules inside the repository")
	link(filepath.Join(top, "elsewhere/AGENTS.md"), "config/tick/AGENTS.md")
	ws := filepath.Join(top, "repo/a/b/c/d/e")

	var set Set
	var err error
	done := make(chan struct{})
	go func() { defer close(done); set, err = Load(ws, filepath.Join(top, "config/tick")) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Load blocked on a special file")
	}
	for _, leak := range []string{secret, "PRIVATE", "\x00\x00"} {
		if strings.Contains(set.Text, leak) {
			t.Errorf("the prompt holds %q:\n%.400s", leak, set.Text)
		}
	}
	for _, want := range []string{"the good rules", "linked rules inside the repository"} {
		if !strings.Contains(set.Text, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, set.Text)
		}
	}
	if len(set.Files) != 2 {
		t.Errorf("loaded %+v, want the two good files", set.Files)
	}
	if err == nil {
		t.Fatal("no error names the skipped files")
	}
	for _, want := range []string{
		filepath.Join(top, "repo/AGENTS.md") + ": it leads outside",
		filepath.Join(top, "repo/a/CLAUDE.md") + ": it leads outside",
		filepath.Join(top, "repo/a/b/AGENTS.md") + ": it leads outside",
		filepath.Join(top, "repo/a/b/c/AGENTS.md") + ": not a regular file (a named pipe)",
		filepath.Join(top, "config/tick/AGENTS.md") + ": it leads outside",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
}

// TestLoadLargeFileIsCapped reads a huge instructions file and a link to
// a file that never ends only up to the cap.
func TestLoadLargeFileIsCapped(t *testing.T) {
	ws := t.TempDir()
	write(t, filepath.Join(ws, "AGENTS.md"), strings.Repeat("x", 4<<20))
	set, err := Load(ws, "")
	if err != nil || len(set.Files) != 1 || !set.Files[0].Cut || set.Files[0].Bytes != MaxBytes {
		t.Fatalf("files %+v, err %v", set.Files, err)
	}
	if len(set.Text) > MaxBytes+1024 {
		t.Errorf("prompt section is %d bytes, over the cap", len(set.Text))
	}
}
