package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestMissingProtectedPathIsReported: a path the repository's git config
// names in the workspace that does not exist when a command starts (an
// include.path whose file is missing: git skips it silently) cannot be made
// read-only, so a sandboxed command could create it; the user's next
// `git status` would then read it and run its core.fsmonitor outside the
// sandbox. The command's GitChanges must report it as planted (the guard
// moves it aside), in the workspace and in a task's copy. Today nothing
// is reported and the included config stays.
func TestMissingProtectedPathIsReported(t *testing.T) {
	ws := t.TempDir()
	gitIn(t, ws, "init", "-q")
	gitIn(t, ws, "config", "include.path", "../.gitconfig") // the file is missing
	gitIn(t, ws, "config", "core.fsmonitor", "./fsmon.sh")  // and so is this program
	r := runnerFor(t, ws, func(p *Policy) { p.Protect = []string{".tick"} })
	copyDir := t.TempDir()
	for _, tt := range []struct {
		name string
		r    *Runner
		dir  string
	}{{"workspace", r, ws}, {"task copy", r.ForWorkspace(copyDir), copyDir}} {
		t.Run(tt.name, func(t *testing.T) {
			script := `printf '[core]\n\tfsmonitor = "touch /tmp/pwned; false"\n' > .gitconfig && echo 'touch /tmp/pwned' > fsmon.sh && mkdir -p .tick && echo x > .tick/config.toml`
			out, code := runIn(t, tt.r, "", script)
			rep := tt.r.GitChanges()
			want := []string{".gitconfig", ".tick", "fsmon.sh"}
			if code == 0 && !slices.Equal(rep.Planted, want) {
				t.Fatalf("the command created protected paths unnoticed: planted %q, want %q\n%s", rep.Planted, want, out)
			}
			if again := tt.r.GitChanges(); !again.Empty() {
				t.Errorf("a second GitChanges reported again: %+v", again)
			}
			for _, f := range want {
				if _, err := os.Lstat(filepath.Join(tt.dir, f)); err != nil && code == 0 {
					t.Errorf("%s: %v", f, err)
				}
			}
		})
	}
}

// TestDanglingLinkAtProtectedPathIsReported: a command that makes a
// missing protected path a link to a file that does not exist yet
// (.gitconfig -> evil.cfg) must be reported too: the file tools write
// evil.cfg without asking (it is no protected path), and git then reads
// it through the link. A dangling link the user had before is no news.
func TestDanglingLinkAtProtectedPathIsReported(t *testing.T) {
	ws := t.TempDir()
	gitIn(t, ws, "init", "-q")
	gitIn(t, ws, "config", "include.path", "../.gitconfig")
	gitIn(t, ws, "config", "core.fsmonitor", "./fsmon.sh")
	if err := os.Symlink("gone.sh", filepath.Join(ws, "fsmon.sh")); err != nil { // the user's own dangling link
		t.Fatal(err)
	}
	r := runnerFor(t, ws, nil)
	out, code := runIn(t, r, "", `ln -s evil.cfg .gitconfig && echo ok`)
	if rep := r.GitChanges(); code == 0 && !slices.Equal(rep.Planted, []string{".gitconfig"}) {
		t.Fatalf("planted %q, want [.gitconfig]\n%s", rep.Planted, out)
	}
	if _, code := runIn(t, r, "", `true`); code != 0 {
		t.Fatal("true failed")
	}
	if rep := r.GitChanges(); !rep.Empty() {
		t.Errorf("links unchanged by the command were reported: %+v", rep)
	}
}

// TestReplacedLinkAtProtectedPathIsReported: a protected path that is a
// symbolic link (.gitconfig -> conf/main.gitconfig) has its target made
// read-only, but the link itself may be replaced by a command: that must
// be reported, as a path created at a missing one is.
func TestReplacedLinkAtProtectedPathIsReported(t *testing.T) {
	ws := t.TempDir()
	gitIn(t, ws, "init", "-q")
	gitIn(t, ws, "config", "include.path", "../.gitconfig")
	writeFiles(t, ws, map[string]string{"conf/main.gitconfig": "[user]\n\tname = t\n"})
	if err := os.Symlink("conf/main.gitconfig", filepath.Join(ws, ".gitconfig")); err != nil {
		t.Fatal(err)
	}
	r := runnerFor(t, ws, nil)
	if _, code := runIn(t, r, "", `echo x >> conf/main.gitconfig`); code == 0 {
		t.Error("the link's target is writable")
	}
	if rep := r.GitChanges(); !rep.Empty() {
		t.Errorf("an unchanged link was reported: %+v", rep)
	}
	out, code := runIn(t, r, "", `rm .gitconfig && printf '[core]\n\tfsmonitor = evil\n' > .gitconfig`)
	if rep := r.GitChanges(); code == 0 && !slices.Equal(rep.Planted, []string{".gitconfig"}) {
		t.Fatalf("planted %q, want [.gitconfig]\n%s", rep.Planted, out)
	}
}
