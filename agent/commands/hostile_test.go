//go:build unix

package commands

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadRefusesSpecialFiles is issue 18 item 4: command files that are
// a named pipe (which hung tick at start-up), a link to /dev/zero (which
// ran it out of memory), a link out of the project or too large are
// skipped, each with a warning naming it, and Load does not block.
func TestLoadRefusesSpecialFiles(t *testing.T) {
	top := t.TempDir()
	project := filepath.Join(top, "repo", ".tick", "commands")
	user := filepath.Join(top, "user", "commands")
	write(t, project, "good.md", "a good command")
	write(t, project, "big.md", strings.Repeat("x", maxFile+1))
	write(t, filepath.Join(top, "repo", "prompts"), "shared.md", "a command linked from inside the repository")
	write(t, top, "secret.txt", "SECRET outside the repository")
	write(t, user, "mine.md", "the user's command")
	if err := syscall.Mkfifo(filepath.Join(project, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(user, "userfifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"zero.md":     "/dev/zero",
		"out.md":      filepath.Join(top, "secret.txt"),
		"shared.md":   "../../prompts/shared.md",
		"userzero.md": "/dev/zero",
	} {
		dir := project
		if strings.HasPrefix(name, "user") {
			dir = user
		}
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}

	var cmds []Command
	var warnings []string
	done := make(chan struct{})
	go func() { defer close(done); cmds, warnings = Load(user, project) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Load blocked on a special file")
	}
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
		if strings.Contains(c.Body, "SECRET") {
			t.Errorf("/%s holds the file outside the repository", c.Name)
		}
	}
	if got := strings.Join(names, ","); got != "good,mine,shared" {
		t.Errorf("commands %s, want good,mine,shared", got)
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{
		"fifo.md: not a regular file (a named pipe)",
		"userfifo.md: not a regular file (a named pipe)",
		"zero.md: it leads outside",
		"userzero.md: not a regular file (a character device)",
		"out.md: it leads outside",
		"big.md: too large",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
}

// TestLoadCommandsDirIsAPipe: a .tick/commands that is a named pipe
// instead of a directory (listing it would wait for a writer) is reported,
// and the user's commands still load.
func TestLoadCommandsDirIsAPipe(t *testing.T) {
	top := t.TempDir()
	project := filepath.Join(top, "repo", ".tick", "commands")
	if err := os.MkdirAll(filepath.Dir(project), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(project, 0o644); err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(top, "user")
	write(t, user, "mine.md", "the user's command")
	var cmds []Command
	var warnings []string
	done := make(chan struct{})
	go func() { defer close(done); cmds, warnings = Load(user, project) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Load blocked on a commands directory that is a named pipe")
	}
	if len(cmds) != 1 || cmds[0].Name != "mine" {
		t.Errorf("commands %+v, want the user's mine", cmds)
	}
	if w := strings.Join(warnings, "\n"); !strings.Contains(w, "commands: not a directory (a named pipe)") {
		t.Errorf("warnings %q do not name the pipe", w)
	}
}
