package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestGitMetaNotifyFollowsMoves: where the kernel tells which directories
// changed, directories moved, replaced and made anew between scans are
// followed under their new names: a .git entry planted deep inside one
// later is found, and moving trees that hold none reports nothing.
func TestGitMetaNotifyFollowsMoves(t *testing.T) {
	ws := t.TempDir()
	put(t, ws, "x/y/z/f", "x")
	put(t, ws, "keep/k/f", "x")
	g := NewGitMeta(ws)
	defer g.Close()
	g.Before()
	if g.notify == nil {
		t.Fatal("the watch does not use inotify here")
	}
	g.After()
	for _, step := range []struct {
		do   func()
		want []string
	}{
		{func() { mustRename(t, ws, "x", "w") }, nil},
		{func() { put(t, ws, "w/y/z/.git/config", "[core]\n") }, []string{"w/y/z/.git"}},
		{func() { mustRename(t, ws, "w", "v"); put(t, ws, "w/y/z/f", "x") }, nil},
		{func() { put(t, ws, "w/y/z/q/.git/config", "[core]\n"); put(t, ws, "v/y/.git", "gitdir: e\n") }, []string{"v/y/.git", "w/y/z/q/.git"}},
		{func() { mustRename(t, ws, "keep/k", "v/y/z/k2"); put(t, ws, "v/y/z/k2/.git", "gitdir: e\n") }, []string{"v/y/z/k2/.git"}},
		{func() { os.RemoveAll(filepath.Join(ws, "v")); put(t, ws, "v/y/z/k2/deeper/.git", "gitdir: e\n") }, []string{"v/y/z/k2/deeper/.git"}},
	} {
		g.Before()
		step.do()
		if rep := g.After(); !slices.Equal(rep.Planted, step.want) || len(rep.Changed) > 0 {
			t.Errorf("report = %+v, want planted %v", rep, step.want)
		}
	}
	if g.notify == nil {
		t.Error("the watch fell back to stat scans")
	}
}

// TestGitMetaNotifyOverflow: when a command makes more changes than the
// kernel queues for the watch, the scan stats every directory instead,
// and a .git entry planted among them is still found.
func TestGitMetaNotifyOverflow(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events")
	if err != nil {
		t.Fatal(err)
	}
	max, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || max > 1<<20 {
		t.Fatalf("max_queued_events = %q", b)
	}
	ws := t.TempDir()
	put(t, ws, "a/b/f", "x")
	put(t, ws, "many/f", "x")
	g := NewGitMeta(ws)
	defer g.Close()
	g.Before()
	g.After()
	g.Before()
	for i := range max + 10 {
		if err := os.WriteFile(filepath.Join(ws, "many", fmt.Sprintf("f%d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(t, ws, "a/b/.git", "gitdir: e\n")
	if rep := g.After(); !slices.Equal(rep.Planted, []string{"a/b/.git"}) {
		t.Errorf("report after an overflow = %+v, want a/b/.git planted", rep)
	}
}

// TestGitMetaClosed: after Close the watch stats every directory, and
// still finds what a command plants.
func TestGitMetaClosed(t *testing.T) {
	ws := t.TempDir()
	put(t, ws, "a/b/f", "x")
	g := NewGitMeta(ws)
	g.Before()
	g.After()
	g.Close()
	g.Before()
	put(t, ws, "a/b/.git", "gitdir: e\n")
	if rep := g.After(); !slices.Equal(rep.Planted, []string{"a/b/.git"}) {
		t.Errorf("report after Close = %+v, want a/b/.git planted", rep)
	}
}

func mustRename(t *testing.T, ws, from, to string) {
	t.Helper()
	if err := os.Rename(filepath.Join(ws, from), filepath.Join(ws, to)); err != nil {
		t.Fatal(err)
	}
}

// TestGitMetaNotifyBudget: past its share of the user's inotify watches
// the watch lets them all go and stats every directory instead, and still
// finds what a command plants.
func TestGitMetaNotifyBudget(t *testing.T) {
	ws := t.TempDir()
	for i := range 8 {
		put(t, ws, fmt.Sprintf("d%d/f", i), "x")
	}
	g := NewGitMeta(ws)
	defer g.Close()
	g.watches = 4
	g.Before()
	if g.notify != nil {
		t.Fatal("the watch kept inotify past its budget")
	}
	put(t, ws, "d7/.git", "gitdir: e\n")
	if rep := g.After(); !slices.Equal(rep.Planted, []string{"d7/.git"}) {
		t.Errorf("report = %+v, want d7/.git planted", rep)
	}
}
