package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// put writes content at the workspace-relative rel, making its directories.
func put(t testing.TB, ws, rel, content string) {
	t.Helper()
	p := filepath.Join(ws, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitTree lays out git metadata of every kind tick meets: the root
// repository, a submodule's gitfile into it, a nested repository, a deep
// one, and a worktree-style gitfile into a directory of the workspace that
// is not named .git.
func gitTree(t testing.TB, ws string) map[string]string {
	t.Helper()
	files := map[string]string{
		".git/config":              "[core]\n",
		".git/modules/sub/config":  "[core]\n",
		"sub/.git":                 "gitdir: ../.git/modules/sub\n",
		"nested/.git/config":       "[core]\n",
		"nested/.git/hooks/README": "hooks\n",
		"a/b/c/d/e/.git/config":    "[core]\n",
		"wt/.git":                  "gitdir: ../realgit\n",
		"realgit/config":           "[core]\n",
	}
	for rel, c := range files {
		put(t, ws, rel, c)
	}
	return files
}

// TestNestedGitMetaReadOnly tries to change every kind of git metadata
// below the workspace from a confined command: each write fails and the
// files stay as they were.
func TestNestedGitMetaReadOnly(t *testing.T) {
	r, ws := testRunner(t, WorkspaceWrite)
	files := gitTree(t, ws)
	for _, script := range []string{
		`echo '[core] fsmonitor = touch /tmp/x' >> nested/.git/config`,
		`echo hook > nested/.git/hooks/pre-commit`,
		`echo 'gitdir: .evilgit' > sub/.git`,
		`rm -f sub/.git`,
		`mv sub/.git sub/old`,
		`rm -rf nested/.git`,
		`echo x >> a/b/c/d/e/.git/config`,
		`echo x >> realgit/config`,
		`echo x >> .git/modules/sub/config`,
	} {
		t.Run(script, func(t *testing.T) {
			out, code := runIn(t, r, "", script)
			if code == 0 {
				t.Errorf("the write succeeded: %s", out)
			}
			for rel, want := range files {
				if b, err := os.ReadFile(filepath.Join(ws, rel)); err != nil || string(b) != want {
					t.Errorf("%s = %q (%v), want %q", rel, b, err, want)
				}
			}
			if _, err := os.Stat(filepath.Join(ws, "nested/.git/hooks/pre-commit")); err == nil {
				t.Errorf("a hook was planted")
			}
			if rep := r.GitChanges(); !rep.Empty() {
				t.Errorf("report after a refused write: %+v", rep)
			}
		})
	}
	// Ordinary work around the repositories still goes.
	if out, code := runIn(t, r, "", `echo ok > sub/file && mkdir -p nested/src && echo ok > nested/src/x`); code != 0 {
		t.Errorf("writing beside the metadata failed: %s", out)
	}
}

// TestGitMetaReportsPlanted: what a confined command creates or replaces
// under the name .git is reported once the command ends; moving a
// directory that holds a repository and writing ordinary files is not.
func TestGitMetaReportsPlanted(t *testing.T) {
	r, ws := testRunner(t, WorkspaceWrite)
	gitTree(t, ws)
	for _, tt := range []struct {
		script string
		want   []string
	}{
		{`echo x > file && mkdir -p d && echo y > d/f`, nil},
		{`mkdir -p p/q && echo 'gitdir: .evilgit' > p/q/.git`, []string{"p/q/.git"}},
		{`mkdir -p new/deep/er && mkdir new/deep/er/.git && echo '[core]' > new/deep/er/.git/config`, []string{"new/deep/er/.git"}},
		{`ln -s /tmp linked/.git 2>/dev/null || { mkdir linked && ln -s /tmp linked/.git; }`, []string{"linked/.git"}},
		{`mv nested moved`, nil},
		{`mkdir -p away && mv wt away/wt && mkdir -p away/realgit && echo '[core]' > away/realgit/config`, []string{"away/wt/.git"}},
		{`mv sub sub2 && mkdir sub && echo 'gitdir: ../evil' > sub/.git`, []string{"sub/.git"}},
		{`mkdir -p wide && cd wide && for i in $(seq 50); do mkdir d$i; done && mkdir d37/.git`, []string{"wide/d37/.git"}},
	} {
		t.Run(tt.script, func(t *testing.T) {
			if out, code := runIn(t, r, "", tt.script); code != 0 {
				t.Fatalf("exit %d: %s", code, out)
			}
			rep := r.GitChanges()
			if !slices.Equal(rep.Planted, tt.want) || len(rep.Changed) > 0 {
				t.Errorf("report = %+v, want planted %v", rep, tt.want)
			}
			if again := r.GitChanges(); !again.Empty() {
				t.Errorf("a second report without a command: %+v", again)
			}
		})
	}
}

// TestGitInitWithoutRepository: a workspace without any repository gets
// one from `git init` in a confined command; it is reported.
func TestGitInitWithoutRepository(t *testing.T) {
	r, ws := testRunner(t, WorkspaceWrite)
	put(t, ws, "main.go", "package main\n")
	out, code := runIn(t, r, "", `git init -q && git config core.fsmonitor 'touch planted'`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if rep := r.GitChanges(); !slices.Equal(rep.Planted, []string{".git"}) {
		t.Errorf("report = %+v, want .git planted", rep)
	}
}

// TestGitMetaBound: past its bound of directories the watch says so,
// once, and keeps watching the directories it has.
func TestGitMetaBound(t *testing.T) {
	ws := t.TempDir()
	for i := range 30 {
		put(t, ws, fmt.Sprintf("d%02d/f", i), "x")
	}
	g := NewGitMeta(ws)
	g.limit = 10
	g.Before()
	put(t, ws, ".git/config", "[core]\n")
	if rep := g.After(); !rep.Over || !slices.Equal(rep.Planted, []string{".git"}) {
		t.Errorf("first report = %+v, want over and .git planted", rep)
	}
	g.Before()
	put(t, ws, "new/.git", "gitdir: x\n")
	if rep := g.After(); rep.Over || len(rep.Planted) != 0 {
		t.Errorf("second report = %+v, want nothing: over was said, and new/ is past the bound", rep)
	}
	if len(g.dirs) > 10 {
		t.Errorf("%d directories watched, bound 10", len(g.dirs))
	}
}

// TestQuarantine moves planted entries aside, then puts one back and
// removes the other.
func TestQuarantine(t *testing.T) {
	ws := t.TempDir()
	put(t, ws, "a/.git", "gitdir: x\n")
	put(t, ws, "b/.git/config", "[core]\n")
	put(t, ws, "b/.git"+quarantineSuffix, "an earlier one\n")
	q, err := Quarantine(ws, []string{"a/.git", "b/.git"})
	if err != nil || len(q) != 2 {
		t.Fatalf("Quarantine = %+v, %v", q, err)
	}
	for _, rel := range []string{"a/.git", "b/.git"} {
		if _, err := os.Lstat(filepath.Join(ws, rel)); err == nil {
			t.Errorf("%s is still there", rel)
		}
	}
	if q[1].Aside != "b/.git"+quarantineSuffix+".2" {
		t.Errorf("b/.git went to %s, want a free name", q[1].Aside)
	}
	if err := q[0].Restore(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a/.git")); string(b) != "gitdir: x\n" {
		t.Errorf("a/.git after Restore = %q", b)
	}
	if err := q[1].Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(ws, q[1].Aside)); err == nil {
		t.Errorf("%s is still there after Remove", q[1].Aside)
	}
	if _, err := Quarantine(ws, []string{"a/config"}); err == nil {
		t.Errorf("Quarantine moved a file that is not a .git entry")
	}
}

// TestInGitMeta is the predicate the file tools share.
func TestInGitMeta(t *testing.T) {
	for rel, want := range map[string]bool{
		".git": true, ".git/config": true, "sub/.git": true, "a/b/.git/hooks/x": true,
		"x.git": false, ".gitignore": false, ".github/x": false, "a/.gitmodules": false, "git/config": false,
	} {
		if got := InGitMeta(rel); got != want {
			t.Errorf("InGitMeta(%q) = %v, want %v", rel, got, want)
		}
	}
}

// bigTree makes a workspace of files files in directories of 10, with a
// nested repository every 1000 directories, and waits out the racy
// window so that scans see a settled tree.
func bigTree(b *testing.B, files int) string {
	b.Helper()
	ws := b.TempDir()
	for d := 0; d*10 < files; d++ {
		dir := filepath.Join(ws, fmt.Sprintf("m%02d", d/1000), fmt.Sprintf("p%03d", d/100%10), fmt.Sprintf("d%d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := 0; f < 10; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		if d%1000 == 0 {
			put(b, dir, ".git/config", "[core]\n")
		}
	}
	time.Sleep(racyWindow + 100*time.Millisecond)
	return ws
}

// BenchmarkGitMetaFirstWalk100k is the first scan of a 100k-file
// workspace (once per session).
func BenchmarkGitMetaFirstWalk100k(b *testing.B) {
	ws := bigTree(b, 100_000)
	for b.Loop() {
		g := NewGitMeta(ws)
		if n := len(g.Before()); n == 0 {
			b.Fatal("no .git entry found")
		}
		g.Close()
	}
}

// BenchmarkGitMetaCommand100k is what every command pays in a 100k-file
// workspace: the scan before it and the one after it.
func BenchmarkGitMetaCommand100k(b *testing.B) {
	ws := bigTree(b, 100_000)
	g := NewGitMeta(ws)
	g.Before()
	g.After()
	cpu0 := cpuTime(b)
	n := 0
	for b.Loop() {
		g.Before()
		if rep := g.After(); !rep.Empty() {
			b.Fatalf("report on an unchanged tree: %+v", rep)
		}
		n++
	}
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(n)/1e6, "cpu-ms/op")
}

// cpuTime is the CPU time (user and system) this process used so far: on
// a loaded machine it says more than the wall time.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestGitMetaWithoutNamespaces: where .git cannot be made read-only (no
// user namespaces), a change to an existing repository's config or hooks
// is reported as changed, a rewritten gitfile as planted, and a commit
// (objects, refs, index) as nothing.
func TestGitMetaWithoutNamespaces(t *testing.T) {
	exe := helperFor(t)
	ws := t.TempDir()
	gitTree(t, ws)
	p := Policy{Mode: WorkspaceWrite, Workspace: ws, TempDir: t.TempDir()}
	s := Probe(exe, p)
	s.Namespaces = false
	r := NewRunner(p, s)
	for _, tt := range []struct {
		script           string
		planted, changed []string
	}{
		{`echo ref > nested/.git/HEAD && mkdir -p nested/.git/objects/ab && echo o > nested/.git/objects/ab/cd && echo i > nested/.git/index`, nil, nil},
		{`printf '[core]\n\tfsmonitor = touch x\n' >> nested/.git/config`, nil, []string{"nested/.git"}},
		{`echo '#!/bin/sh' > a/b/c/d/e/.git/hooks-new && mkdir -p a/b/c/d/e/.git/hooks && echo x > a/b/c/d/e/.git/hooks/pre-commit`, nil, []string{"a/b/c/d/e/.git"}},
		{`echo 'gitdir: .evilgit' > sub/.git`, []string{"sub/.git"}, nil},
	} {
		t.Run(tt.script, func(t *testing.T) {
			if out, code := runIn(t, r, "", tt.script); code != 0 {
				t.Fatalf("exit %d: %s", code, out)
			}
			rep := r.GitChanges()
			if !slices.Equal(rep.Planted, tt.planted) || !slices.Equal(rep.Changed, tt.changed) {
				t.Errorf("report = %+v, want planted %v, changed %v", rep, tt.planted, tt.changed)
			}
		})
	}
}
