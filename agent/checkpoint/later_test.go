package checkpoint

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// treeNow stages the workspace of s as a snapshot would and returns its
// tree, and whether the quick pass (later.go) staged it.
func treeNow(t *testing.T, s *Store) (string, bool) {
	t.Helper()
	ctx := context.Background()
	if err := s.lock(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.unlock()
	before := s.quick
	tree, _, err := s.tree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return tree, s.quick > before
}

// fullTree is the tree a store with no state of its own (the full
// staging, walked by git) makes of the workspace ws.
func fullTree(t *testing.T, ws string) string {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "fresh"), ws)
	if err != nil {
		t.Fatal(err)
	}
	tree, quick := treeNow(t, s)
	if quick {
		t.Fatal("a new store took the quick pass")
	}
	return tree
}

// quickLikeFull checks that the quick pass staged the workspace of s
// now, and that its tree is the one the full staging makes.
func quickLikeFull(t *testing.T, s *Store, ws, what string) {
	t.Helper()
	got, quick := treeNow(t, s)
	if !quick {
		t.Errorf("%s: the quick pass was not taken", what)
	}
	if want := fullTree(t, ws); got != want {
		t.Errorf("%s: the quick pass staged tree %s, the full staging %s", what, got, want)
	}
}

// TestLaterRacyRewrite: a file rewritten with the same size, its mtime
// set back to what it was (os.Chtimes), is still seen as changed by the
// next snapshot's quick pass (its ctime moved), and so is one rewritten
// at once after a snapshot, within the file system's timestamp
// granularity (git's racily clean rule); undo brings each back byte for
// byte.
func TestLaterRacyRewrite(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "a.txt", "AAAA\n")
	write(t, ws, "b.txt", "bbbb\n")
	cp1 := save(t, s, "one")
	quickLikeFull(t, s, ws, "nothing changed")
	fi, err := os.Lstat(filepath.Join(ws, "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, ws, "a.txt", "ZZZZ\n")
	if err := os.Chtimes(filepath.Join(ws, "a.txt"), fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	cp2 := save(t, s, "two")
	write(t, ws, "b.txt", "cccc\n") // at once: the same mtime tick as the index, likely
	cp3 := save(t, s, "three")
	if s.quick < 2 {
		t.Errorf("quick passes = %d, want the later snapshots quick", s.quick)
	}
	for _, c := range []struct {
		id   string
		a, b string
	}{{cp1.ID, "AAAA\n", "bbbb\n"}, {cp2.ID, "ZZZZ\n", "bbbb\n"}, {cp3.ID, "ZZZZ\n", "cccc\n"}, {cp1.ID, "AAAA\n", "bbbb\n"}} {
		if _, err := s.Restore(ctx, c.id); err != nil {
			t.Fatal(err)
		}
		if a, b := read(t, ws, "a.txt"), read(t, ws, "b.txt"); a != c.a || b != c.b {
			t.Errorf("after restoring %s: a.txt %q, b.txt %q; want %q, %q", c.id, a, b, c.a, c.b)
		}
	}
}

// TestLaterTypeChanges: between two snapshots a file becomes a link, a
// directory becomes a file, a file becomes a directory, a link a file,
// a file goes, files appear in an old and in a new directory, an ignored
// one too; the quick pass stages what the full staging stages, and undo
// and redo bring each back.
func TestLaterTypeChanges(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, ".gitignore", "*.log\n")
	write(t, ws, "link-later", "a file\n")
	write(t, ws, "dir/inner.txt", "inside\n")
	write(t, ws, "dir/deeper/more.txt", "deeper\n")
	write(t, ws, "file-later-dir", "a file\n")
	write(t, ws, "gone.txt", "goes\n")
	if err := os.Symlink("gone.txt", filepath.Join(ws, "link-now-file")); err != nil {
		t.Fatal(err)
	}
	cp := save(t, s, "before")
	for _, p := range []string{"link-later", "dir", "file-later-dir", "gone.txt", "link-now-file"} {
		if err := os.RemoveAll(filepath.Join(ws, p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("elsewhere", filepath.Join(ws, "link-later")); err != nil {
		t.Fatal(err)
	}
	write(t, ws, "dir", "now a file\n")
	write(t, ws, "file-later-dir/x.txt", "now a directory\n")
	write(t, ws, "link-now-file", "now a file\n")
	write(t, ws, "new/deep/er.txt", "new\n")
	write(t, ws, "new/deep/skip.log", "ignored\n")
	quickLikeFull(t, s, ws, "after the type changes")
	after := save(t, s, "after")
	if _, err := s.Restore(ctx, cp.ID); err != nil {
		t.Fatal(err)
	}
	for p, c := range map[string]string{"link-later": "a file\n", "dir/inner.txt": "inside\n", "dir/deeper/more.txt": "deeper\n",
		"file-later-dir": "a file\n", "gone.txt": "goes\n", "new/deep/er.txt": "<missing>", "new/deep/skip.log": "ignored\n"} {
		if got := read(t, ws, p); got != c {
			t.Errorf("%s after the undo = %q, want %q", p, got, c)
		}
	}
	if l, err := os.Readlink(filepath.Join(ws, "link-now-file")); err != nil || l != "gone.txt" {
		t.Errorf("link-now-file after the undo: %q, %v; want the link to gone.txt", l, err)
	}
	if _, err := s.Restore(ctx, after.ID); err != nil {
		t.Fatal(err)
	}
	if l, err := os.Readlink(filepath.Join(ws, "link-later")); err != nil || l != "elsewhere" {
		t.Errorf("link-later after the redo: %q, %v; want the link to elsewhere", l, err)
	}
	for p, c := range map[string]string{"dir": "now a file\n", "file-later-dir/x.txt": "now a directory\n", "link-now-file": "now a file\n", "new/deep/er.txt": "new\n"} {
		if got := read(t, ws, p); got != c {
			t.Errorf("%s after the redo = %q, want %q", p, got, c)
		}
	}
}

// TestLaterFullWhenUnsure: what the quick pass cannot be sure of sends a
// snapshot down the full staging, and the snapshot after it is quick
// again: a new .gitignore, a FIFO where a tracked file was, a file over
// MaxFileSize, a nested repository.
func TestLaterFullWhenUnsure(t *testing.T) {
	s, ws := open(t)
	write(t, ws, "keep.txt", "keep\n")
	write(t, ws, "fifo", "a file for now\n")
	save(t, s, "start")
	for _, c := range []struct {
		what string
		do   func()
	}{
		{"a new .gitignore", func() { write(t, ws, "sub/.gitignore", "*.tmp\n"); write(t, ws, "sub/x.tmp", "ignored\n") }},
		{"a FIFO for a tracked file", func() {
			os.Remove(filepath.Join(ws, "fifo"))
			if err := syscall.Mkfifo(filepath.Join(ws, "fifo"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"a large file", func() { write(t, ws, "big.bin", string(make([]byte, MaxFileSize+1))) }},
		{"an ignored .gitignore edited in place", func() {
			write(t, ws, "ign/.gitignore", "*\n")
			write(t, ws, "ign/a.txt", "ignored for now\n")
			treeNow(t, s)
			if _, quick := treeNow(t, s); !quick {
				t.Error("no quick pass between the two .gitignore changes")
			}
			write(t, ws, "ign/.gitignore", "#\n")
		}},
		{"a nested repository", func() { write(t, ws, "vendored/f.go", "package f\n"); userRepo(t, filepath.Join(ws, "vendored")) }},
	} {
		c.do()
		got, quick := treeNow(t, s)
		if quick {
			t.Errorf("%s: the quick pass was taken", c.what)
		}
		if want := fullTree(t, ws); got != want {
			t.Errorf("%s: staged %s, the full staging %s", c.what, got, want)
		}
	}
	write(t, ws, "keep.txt", "changed\n")
	if _, quick := treeNow(t, s); quick {
		t.Error("with a nested repository the quick pass was taken")
	}
	os.RemoveAll(filepath.Join(ws, "vendored"))
	treeNow(t, s)
	write(t, ws, "keep.txt", "changed again\n")
	quickLikeFull(t, s, ws, "the nested repository gone")
}

// TestLaterAfterRewind: a restore rewrites the shadow index, so the
// snapshot after it takes the full staging, and the one after that is
// quick again; each records what was there.
func TestLaterAfterRewind(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "f.txt", "one\n")
	write(t, ws, "g.txt", "gggg\n")
	cp1 := save(t, s, "one")
	write(t, ws, "f.txt", "two\n")
	write(t, ws, "h/new.txt", "new\n")
	cp2 := save(t, s, "two")
	if _, err := s.Restore(ctx, cp1.ID); err != nil {
		t.Fatal(err)
	}
	write(t, ws, "g.txt", "GGGG\n")
	if _, quick := treeNow(t, s); quick {
		t.Error("the snapshot after a restore was quick")
	}
	write(t, ws, "f.txt", "six\n")
	quickLikeFull(t, s, ws, "the second snapshot after a restore")
	cp3 := save(t, s, "three")
	for _, c := range []struct{ id, f, g, h string }{{cp2.ID, "two\n", "gggg\n", "new\n"}, {cp3.ID, "six\n", "GGGG\n", "<missing>"}, {cp1.ID, "one\n", "gggg\n", "<missing>"}} {
		if _, err := s.Restore(ctx, c.id); err != nil {
			t.Fatal(err)
		}
		if f, g, h := read(t, ws, "f.txt"), read(t, ws, "g.txt"), read(t, ws, "h/new.txt"); f != c.f || g != c.g || h != c.h {
			t.Errorf("after restoring %s: %q %q %q, want %q %q %q", c.id, f, g, h, c.f, c.g, c.h)
		}
	}
}

// TestLaterParallelTasks: parallel tasks each work in a copy of the
// workspace with a store of its own; their snapshots, quick ones among
// them, run at the same time and each restores its own copy.
func TestLaterParallelTasks(t *testing.T) {
	ctx := context.Background()
	const tasks, points = 3, 4
	var wg sync.WaitGroup
	for task := range tasks {
		s, ws := open(t)
		for i := range 20 {
			write(t, ws, fmt.Sprintf("d%d/f%d.txt", i%4, i), fmt.Sprintf("task %d file %d\n", task, i))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids := make([]string, points)
			for p := range points {
				write(t, ws, fmt.Sprintf("d%d/f%d.txt", p, p), fmt.Sprintf("task %d point %d\n", task, p))
				write(t, ws, fmt.Sprintf("new%d/p.txt", p), "new\n")
				cp, err := s.Save(ctx, "point")
				if err != nil {
					t.Error(err)
					return
				}
				ids[p] = cp.ID
				time.Sleep(time.Millisecond)
			}
			if _, err := s.Restore(ctx, ids[1]); err != nil {
				t.Error(err)
				return
			}
			if got, want := read(t, ws, "d1/f1.txt"), fmt.Sprintf("task %d point 1\n", task); got != want {
				t.Errorf("task %d: d1/f1.txt = %q, want %q", task, got, want)
			}
			if got := read(t, ws, "d2/f2.txt"); got != fmt.Sprintf("task %d file 2\n", task) {
				t.Errorf("task %d: d2/f2.txt = %q after restoring point 1", task, got)
			}
			if got := read(t, ws, "new3/p.txt"); got != "<missing>" {
				t.Errorf("task %d: new3/p.txt = %q after restoring point 1", task, got)
			}
			if s.quick == 0 {
				t.Errorf("task %d: no snapshot was quick", task)
			}
		}()
	}
	wg.Wait()
}

// TestLaterOwnObjects: the blobs and trees a quick pass writes itself
// are objects git reads and checks (fsck), the trees are those the full
// staging makes, and when more than maxOwn files changed git stages
// them (with those hashed before) into the index; undo brings every
// point back.
func TestLaterOwnObjects(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	for i := range 40 {
		write(t, ws, fmt.Sprintf("d%d/f%d.txt", i%5, i), fmt.Sprintf("file %d\n", i))
	}
	if err := os.Chmod(filepath.Join(ws, "d1/f1.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	ids := []string{save(t, s, "start").ID}
	for p := range 4 {
		write(t, ws, fmt.Sprintf("d%d/f%d.txt", p, p), fmt.Sprintf("point %d %s\n", p, strings.Repeat("x", p)))
		write(t, ws, "d4/f39.txt", fmt.Sprintf("edited at %d\n", p))
		quickLikeFull(t, s, ws, fmt.Sprintf("point %d", p))
		ids = append(ids, save(t, s, "point").ID)
	}
	if s.last == nil || len(s.last.touched) == 0 {
		t.Error("the quick passes hashed nothing themselves")
	}
	cmd := exec.Command("git", "fsck", "--strict", "--no-dangling")
	cmd.Env = append(gitlessEnv(), "GIT_DIR="+s.dir, "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("git fsck of the shadow repository: %v: %s", err, out)
	}
	for i := range maxOwn + 1 {
		write(t, ws, fmt.Sprintf("many/m%d.txt", i), "many\n")
	}
	quickLikeFull(t, s, ws, "more files than maxOwn")
	if len(s.last.touched) != 0 {
		t.Errorf("%d entries still hashed by the quick pass alone, want git to have staged them", len(s.last.touched))
	}
	for p, id := range ids {
		if _, err := s.Restore(ctx, id); err != nil {
			t.Fatal(err)
		}
		want := "file 2\n"
		if p > 2 {
			want = "point 2 xx\n"
		}
		if got := read(t, ws, "d2/f2.txt"); got != want {
			t.Errorf("after restoring point %d: d2/f2.txt = %q, want %q", p, got, want)
		}
		if got := read(t, ws, "many/m0.txt"); got != "<missing>" {
			t.Errorf("after restoring point %d: many/m0.txt = %q", p, got)
		}
	}
	if fi, err := os.Stat(filepath.Join(ws, "d1/f1.txt")); err != nil || fi.Mode()&0o100 == 0 {
		t.Errorf("d1/f1.txt lost its executable bit: %v %v", fi, err)
	}
}

// TestLaterTakenOutThenBack: a file a quick pass took out, hashing it
// itself (the index file still lists it), that comes back is staged
// again, and so is a directory's file; a file a quick pass added that
// goes again is taken out. Each snapshot is the full staging's tree.
func TestLaterTakenOutThenBack(t *testing.T) {
	s, ws := open(t)
	write(t, ws, "x.txt", "x\n")
	write(t, ws, "d/y.txt", "y\n")
	write(t, ws, "keep.txt", "keep\n")
	save(t, s, "start")
	os.Remove(filepath.Join(ws, "x.txt"))
	os.RemoveAll(filepath.Join(ws, "d"))
	write(t, ws, "added.txt", "added\n")
	quickLikeFull(t, s, ws, "x.txt and d taken out")
	write(t, ws, "x.txt", "x is back\n")
	write(t, ws, "d/y.txt", "y is back\n")
	quickLikeFull(t, s, ws, "x.txt and d back")
	os.Remove(filepath.Join(ws, "added.txt"))
	quickLikeFull(t, s, ws, "added.txt gone")
	for i := range maxOwn + 1 {
		write(t, ws, fmt.Sprintf("m/%d.txt", i), "m\n")
	}
	quickLikeFull(t, s, ws, "git staging what the quick passes hashed")
}

// TestLaterLargeFile: an untracked file over MaxFileSize that grows
// stays left out by quick passes, named with its size now; once under
// the cap it is staged (by the full staging).
func TestLaterLargeFile(t *testing.T) {
	s, ws := open(t)
	write(t, ws, "a.txt", "a\n")
	write(t, ws, "big.log", strings.Repeat("x", MaxFileSize+1))
	save(t, s, "start")
	write(t, ws, "big.log", strings.Repeat("x", 2*MaxFileSize))
	write(t, ws, "a.txt", "b\n")
	cp := save(t, s, "grown")
	if s.quick != 1 {
		t.Errorf("quick passes = %d, want 1", s.quick)
	}
	if len(cp.Skipped) != 1 || cp.Skipped[0].Path != "big.log" || !strings.Contains(cp.Skipped[0].Why, "10 MB over") {
		t.Errorf("skipped = %v, want big.log at 10 MB", cp.Skipped)
	}
	write(t, ws, "big.log", "small now\n")
	got, quick := treeNow(t, s)
	if quick {
		t.Error("the quick pass took the large file come under the cap")
	}
	if want := fullTree(t, ws); got != want {
		t.Errorf("staged %s, the full staging %s", got, want)
	}
}

// TestLaterLinkedWorkspace: a workspace reached through a link (a
// macOS /tmp, a linked checkout) gets quick passes too, each the full
// staging's tree, and none empties the snapshot.
func TestLaterLinkedWorkspace(t *testing.T) {
	real := t.TempDir()
	ws := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(real, ws); err != nil {
		t.Fatal(err)
	}
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "shadow"), ws)
	if err != nil {
		t.Fatal(err)
	}
	write(t, ws, "a.txt", "a\n")
	write(t, ws, "d/b.txt", "b\n")
	save(t, s, "start")
	write(t, ws, "a.txt", "changed\n")
	write(t, ws, "d/c.txt", "new\n")
	quickLikeFull(t, s, ws, "through the link")
	if got, _ := treeNow(t, s); got == "4b825dc642cb6eb9a060e54bf8d69288fbee4904" {
		t.Error("the snapshot is the empty tree")
	}
}

// TestLaterTwoTicks: two ticks in one workspace share its store; each
// one's quick pass notices the index the other wrote (and takes the full
// staging), and the one's own hashed files do not leak into the other's
// snapshot: every snapshot is the workspace's tree.
func TestLaterTwoTicks(t *testing.T) {
	a, ws := open(t)
	b, err := Open(context.Background(), a.dir, ws)
	if err != nil {
		t.Fatal(err)
	}
	write(t, ws, "f.txt", "0\n")
	write(t, ws, "g.txt", "g\n")
	save(t, a, "a0")
	write(t, ws, "f.txt", "1\n")
	quickLikeFull(t, a, ws, "tick a's quick pass")
	write(t, ws, "g.txt", "G\n")
	if got, want := func() string { tr, _ := treeNow(t, b); return tr }(), fullTree(t, ws); got != want {
		t.Errorf("tick b staged %s, the workspace is %s", got, want)
	}
	write(t, ws, "f.txt", "2\n")
	got, _ := treeNow(t, a)
	if want := fullTree(t, ws); got != want {
		t.Errorf("tick a after tick b staged %s, the workspace is %s", got, want)
	}
	write(t, ws, "f.txt", "3\n")
	quickLikeFull(t, a, ws, "tick a's quick pass again")
}
