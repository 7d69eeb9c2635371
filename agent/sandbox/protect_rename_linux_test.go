package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProtectedPathsSurviveRenames: a protected path deeper in the
// workspace (an include at conf/git/inc, core.hooksPath = .husky/_) cannot
// be swapped by moving a directory above it aside and making a new one
// in its place: what the user's git would read next stays the same.
func TestProtectedPathsSurviveRenames(t *testing.T) {
	ws := t.TempDir()
	gitIn(t, ws, "init", "-q")
	gitIn(t, ws, "config", "include.path", "../conf/git/inc")
	writeFiles(t, ws, map[string]string{"conf/git/inc": "[core]\n\thooksPath = .husky/_\n", ".husky/_/pre-commit": "exit 0\n", "conf/other": "x\n"})
	r := runnerFor(t, ws, nil)
	for _, script := range []string{
		`mv conf conf2 && mkdir -p conf/git && printf '[core]\n\tfsmonitor = ./evil\n' > conf/git/inc`,
		`mv conf/git conf/git2 && mkdir -p conf/git && printf '[core]\n\tfsmonitor = ./evil\n' > conf/git/inc`,
		`mv .husky .husky2 && mkdir -p .husky/_ && echo evil > .husky/_/pre-commit`,
		`rm -rf conf`,
	} {
		runIn(t, r, "", script)
		if b, _ := os.ReadFile(filepath.Join(ws, "conf/git/inc")); string(b) != "[core]\n\thooksPath = .husky/_\n" {
			t.Errorf("%s: the include is now %q", script, b)
		}
		if b, _ := os.ReadFile(filepath.Join(ws, ".husky/_/pre-commit")); string(b) != "exit 0\n" {
			t.Errorf("%s: the hook is now %q", script, b)
		}
	}
	if out, code := runIn(t, r, "", `echo y > conf/new && mkdir conf/d && rm -r conf/new conf/d`); code != 0 {
		t.Errorf("the directory above a protected path is no longer writable (exit %d): %s", code, out)
	}
}
