package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// plantFsmonitor is a command that makes the workspace a repository whose
// config has the user's next git status run `touch marker`.
func plantFsmonitor(marker string) string {
	return "git init -q && git config core.fsmonitor 'touch " + marker + "'"
}

// userGitRan runs the user's own git status in dir, outside any sandbox,
// and reports whether the planted command ran.
func userGitRan(dir, marker string) bool {
	cmd := exec.Command("git", "status")
	cmd.Dir = dir
	_ = cmd.Run()
	_, err := os.Stat(marker)
	return err == nil
}

// TestE2EGitInitHeadless: in -p, a git init by a sandboxed command in a
// workspace without a repository is removed before the user's git can
// trust it, and stderr says so.
func TestE2EGitInitHeadless(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	srv := providertest.New(t)
	srv.Enqueue(call("bash", map[string]any{"command": plantFsmonitor(marker)}), providertest.Reply{Text: "Initialised."})
	args, ws := headless(t, srv, "make it a repository")
	r := tick(t, nil, "", args...)
	if r.code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if userGitRan(ws, marker) {
		t.Errorf("the user's git status ran the command a sandboxed command planted")
	}
	if !strings.Contains(r.stderr, "removed git metadata a sandboxed command created: .git") {
		t.Errorf("stderr does not say the .git was removed:\n%s", r.stderr)
	}
	if res := toolResults(srv.Requests()); len(res) != 1 || !strings.Contains(res[0], "tick removed the git metadata this command created (.git)") {
		t.Errorf("tool results %q", res)
	}
}

// TestE2EGitInitKept: in the app the user is asked once whether to keep
// the repository a command created, and y keeps it.
func TestE2EGitInitKept(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv, bashStep("git init -q && echo initialised"), textStep("All done."))
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws)
	p.waitFor("auto · sandbox: workspace-write")
	p.prompt("run git init")
	p.waitFor("Keep the git metadata this command created?")
	if _, err := os.Lstat(filepath.Join(ws, ".git")); err == nil {
		t.Errorf(".git is in place while the user is asked")
	}
	time.Sleep(deliberatePause) // a deliberate answer
	p.send("y")
	p.waitFor("All done.")
	if fi, err := os.Stat(filepath.Join(ws, ".git", "HEAD")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the repository the user kept is not there: %v", err)
	}
	if res := toolResults(srv.Requests()); len(res) != 1 || !strings.Contains(res[0], "kept with the user's approval") {
		t.Errorf("tool results %q", res)
	}
}
