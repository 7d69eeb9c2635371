package checkpoint

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNestedRepositories: a `git init` kept in docs/ (no commit) made
// every snapshot fail, and a vendored clone with commits was recorded as
// a gitlink, its files never kept. Both are snapshotted file by file,
// their .git left out, also by a store opened again (after a restart).
func TestNestedRepositories(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "top.txt", "top\n")
	write(t, ws, "docs/guide.md", "guide v1\n")
	gitIn(t, filepath.Join(ws, "docs"), "init", "-q")
	write(t, ws, "vendor/lib/lib.go", "package lib // v1\n")
	write(t, ws, "vendor/lib/.gitignore", "*.o\n")
	write(t, ws, "vendor/lib/build.o", "object\n")
	gitIn(t, filepath.Join(ws, "vendor/lib"), "init", "-q")
	gitIn(t, filepath.Join(ws, "vendor/lib"), "add", ".")
	gitIn(t, filepath.Join(ws, "vendor/lib"), "commit", "-qm", "v1")
	cp, err := s.Save(ctx, "before")
	if err != nil {
		t.Fatalf("a snapshot with nested repositories: %v", err)
	}
	write(t, ws, "docs/guide.md", "guide v2\n")
	write(t, ws, "docs/new.md", "new\n")
	write(t, ws, "vendor/lib/lib.go", "package lib // v2\n")
	write(t, ws, "vendor/lib/build.o", "object 2\n")
	os.Remove(filepath.Join(ws, "top.txt"))

	s2, err := Open(ctx, s.dir, ws) // as after a restart
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s2.Changes(ctx, cp.ID)
	if err != nil {
		t.Fatalf("changes from a reopened store: %v", err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, string(c.Kind)+" "+c.Path)
	}
	if want := "changed docs/guide.md|created docs/new.md|deleted top.txt|changed vendor/lib/lib.go"; strings.Join(got, "|") != want {
		t.Errorf("changes = %q, want %q", strings.Join(got, "|"), want)
	}
	if _, err := s2.Restore(ctx, cp.ID); err != nil {
		t.Fatalf("restore: %v", err)
	}
	for rel, want := range map[string]string{"docs/guide.md": "guide v1\n", "docs/new.md": "<missing>", "top.txt": "top\n",
		"vendor/lib/lib.go": "package lib // v1\n", "vendor/lib/build.o": "object 2\n"} {
		if got := read(t, ws, rel); got != want {
			t.Errorf("%s after undo = %q, want %q", rel, got, want)
		}
	}
	for _, gitdir := range []string{"docs/.git/HEAD", "vendor/lib/.git/HEAD"} {
		if _, err := os.Stat(filepath.Join(ws, gitdir)); err != nil {
			t.Errorf("the nested repository lost %s: %v", gitdir, err)
		}
	}
	noGitInStore(t, s2)
}

// TestGitlinkOfAnOlderStoreDropped: a store an older tick left with a
// gitlink for a vendored clone in its index snapshots the clone's files
// once opened again.
func TestGitlinkOfAnOlderStoreDropped(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "vendor/lib/lib.go", "package lib // v1\n")
	gitIn(t, filepath.Join(ws, "vendor/lib"), "init", "-q")
	gitIn(t, filepath.Join(ws, "vendor/lib"), "add", ".")
	gitIn(t, filepath.Join(ws, "vendor/lib"), "commit", "-qm", "v1")
	if err := s.lock(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := s.run(ctx, nil, "add", "-A", ".") // what the older tick did
	s.unlock()
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Open(ctx, s.dir, ws)
	if err != nil {
		t.Fatal(err)
	}
	cp := save(t, s2, "before")
	write(t, ws, "vendor/lib/lib.go", "package lib // v2\n")
	if _, err := s2.Restore(ctx, cp.ID); err != nil {
		t.Fatal(err)
	}
	if got := read(t, ws, "vendor/lib/lib.go"); got != "package lib // v1\n" {
		t.Errorf("vendor/lib/lib.go after undo = %q (the clone was kept as a gitlink)", got)
	}
}

// TestQuarantinedGitNotSnapshotted: a .git the git guard moved aside in a
// nested directory is never content of a snapshot, so no restore writes
// it back, into .git or beside it.
func TestQuarantinedGitNotSnapshotted(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "docs/a.md", "a\n")
	gitIn(t, filepath.Join(ws, "docs"), "init", "-q")
	cp := save(t, s, "before")
	// a command planted a hook; the guard moved the .git aside
	write(t, ws, "docs/.git/hooks/pre-commit", "#!/bin/sh\ntouch /tmp/pwned\n")
	if err := os.Rename(filepath.Join(ws, "docs/.git"), filepath.Join(ws, "docs/.git.quarantined-by-tick")); err != nil {
		t.Fatal(err)
	}
	write(t, ws, "sub/.git.quarantined-by-tick/config", "[core]\n\tfsmonitor = touch /tmp/pwned\n")
	write(t, ws, "docs/a.md", "b\n")
	save(t, s, "after")
	noGitInStore(t, s)
	os.RemoveAll(filepath.Join(ws, "docs/.git.quarantined-by-tick"))
	if _, err := s.Restore(ctx, cp.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ws, "docs/.git/hooks/pre-commit")); err == nil {
		t.Error("the undo wrote the planted hook into docs/.git")
	}
	if got := read(t, ws, "docs/a.md"); got != "a\n" {
		t.Errorf("docs/a.md after undo = %q", got)
	}
}

// noGitInStore fails t when any snapshot of s holds a path through a
// .git entry or a quarantined one.
func noGitInStore(t *testing.T, s *Store) {
	t.Helper()
	out, err := s.run(context.Background(), nil, "rev-list", "--objects", "--all")
	if err != nil {
		t.Fatal(err)
	}
	for _, ln := range strings.Split(string(out), "\n") {
		if strings.Contains(ln, ".git/") || strings.Contains(ln, "quarantined") || strings.HasSuffix(ln, "/.git") {
			t.Errorf("the store holds %q", ln)
		}
	}
}
