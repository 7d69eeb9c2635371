package checkpoint

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// userFiles are a git workspace's files at its user's commit.
var userFiles = map[string]string{
	"keep.txt": "one\ntwo\n", "crlf.txt": "dos\r\nline\r\n", "raw.bin": "\xff\xfe\x00bytes\n", "dir/sub/deep.go": "package sub\n",
}

// committed makes a git workspace holding userFiles (and extra, a
// .gitattributes for one), committed by the user's git with config set
// in the repository first.
func committed(t *testing.T, ws string, extra map[string]string, config ...string) {
	t.Helper()
	gitIn(t, ws, "init", "-q")
	for i := 0; i+1 < len(config); i += 2 {
		gitIn(t, ws, "config", config[i], config[i+1])
	}
	for rel, c := range userFiles {
		write(t, ws, rel, c)
	}
	for rel, c := range extra {
		write(t, ws, rel, c)
	}
	old := time.Now().Add(-time.Hour) // not racily clean: the index keeps the files' sizes
	for rel := range userFiles {
		os.Chtimes(filepath.Join(ws, rel), old, old)
	}
	gitIn(t, ws, "add", "-A")
	gitIn(t, ws, "commit", "-qm", "user")
}

// openCommitted opens a store on a new git workspace holding userFiles
// (and extra), committed by the user's git with config set first.
func openCommitted(t *testing.T, extra map[string]string, config ...string) (*Store, string) {
	t.Helper()
	s, ws := open(t)
	committed(t, ws, extra, config...)
	return s, ws
}

// undoRestoresUserFiles overwrites every one of userFiles in ws, restores
// id, and fails t unless every file is back byte for byte.
func undoRestoresUserFiles(t *testing.T, s *Store, ws, id string) {
	t.Helper()
	for rel := range userFiles {
		write(t, ws, rel, "overwritten\n")
	}
	if _, err := s.Restore(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	for rel, c := range userFiles {
		if got := read(t, ws, rel); got != c {
			t.Errorf("%s after undo = %q, want %q", rel, got, c)
		}
	}
}

// borrowed reports whether the store's index started from the user's:
// a pack of copied objects is in the shadow repository.
func borrowed(t *testing.T, s *Store) bool {
	t.Helper()
	packs, _ := filepath.Glob(filepath.Join(s.dir, "objects", "pack", "*.pack"))
	return len(packs) > 0
}

// objectTimes lists the files of a user's object store with their size
// and modification time.
func objectTimes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			fi, _ := e.Info()
			out[p] = fi.ModTime().String() + " " + fi.Mode().String()
		}
		return nil
	})
	return out
}

// TestBorrowedIndexRestoresBytes: in a git workspace the first snapshot
// starts from the user's index and objects; undo still restores every
// file byte for byte, also after the user's repository lost every object
// (a gc, a prune), and the user's object store is never written.
func TestBorrowedIndexRestoresBytes(t *testing.T) {
	ctx := context.Background()
	s, ws := openCommitted(t, nil)
	time.Sleep(10 * time.Millisecond)
	write(t, ws, "keep.txt", "changed before the snapshot\n")
	write(t, ws, "untracked.txt", "new\n")
	before := objectTimes(t, filepath.Join(ws, ".git", "objects"))
	cp := save(t, s, "before")
	if !borrowed(t, s) {
		t.Fatal("the first snapshot of a clean git workspace did not borrow the user's index")
	}
	if _, err := os.Stat(filepath.Join(s.dir, "objects", "info", "alternates")); err == nil {
		t.Error("the store depends on the user's objects (alternates)")
	}
	want := map[string]string{}
	for rel, c := range userFiles {
		want[rel] = c
	}
	want["keep.txt"], want["untracked.txt"] = "changed before the snapshot\n", "new\n"
	for rel := range want {
		write(t, ws, rel, "overwritten\r\n")
	}
	write(t, ws, "created.txt", "x")
	save(t, s, "after")
	if after := objectTimes(t, filepath.Join(ws, ".git", "objects")); !sameMap(before, after) {
		t.Errorf("the user's object store was written:\nbefore %v\nafter  %v", before, after)
	}
	os.RemoveAll(filepath.Join(ws, ".git", "objects")) // the user's gc took every object
	os.MkdirAll(filepath.Join(ws, ".git", "objects"), 0o755)
	if _, err := s.Restore(ctx, cp.ID); err != nil {
		t.Fatalf("restore after the user's objects went: %v", err)
	}
	for rel, c := range want {
		if got := read(t, ws, rel); got != c {
			t.Errorf("%s after undo = %q, want %q", rel, got, c)
		}
	}
	if read(t, ws, "created.txt") != "<missing>" {
		t.Error("created.txt survived the undo")
	}
}

// TestBorrowRefusedWhereGitConverts: where the user's git stored files
// converted (line endings by attributes or core.autocrlf, also an
// attributes file since removed), the index is not borrowed and undo
// restores the workspace's bytes.
func TestBorrowRefusedWhereGitConverts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		extra  map[string]string
		config []string
		after  func(t *testing.T, ws string)
	}{
		{name: "attributes", extra: map[string]string{".gitattributes": "* text eol=crlf\n"}},
		{name: "nested attributes", extra: map[string]string{"dir/.gitattributes": "* text eol=crlf\n"}},
		{name: "autocrlf", config: []string{"core.autocrlf", "input"}},
		{name: "attributes removed", extra: map[string]string{".gitattributes": "*.txt text\n"}, after: func(t *testing.T, ws string) {
			gitIn(t, ws, "rm", "-q", ".gitattributes")
			gitIn(t, ws, "commit", "-qm", "no attributes")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ws := openCommitted(t, tc.extra, tc.config...)
			if tc.after != nil {
				tc.after(t, ws)
			}
			cp := save(t, s, "before")
			if borrowed(t, s) {
				t.Error("borrowed the index of a repository that converts files")
			}
			undoRestoresUserFiles(t, s, ws, cp.ID)
		})
	}
}

// sameMap reports whether a and b hold the same keys and values.
func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestBorrowLeavesOutBigTrackedFiles: a file over the cap the user's git
// tracks is left out of the snapshot, as an untracked one is, not copied
// into the store from the user's objects.
func TestBorrowLeavesOutBigTrackedFiles(t *testing.T) {
	big := strings.Repeat("b", MaxFileSize+1)
	s, _ := openCommitted(t, map[string]string{"big.bin": big})
	cp := save(t, s, "before")
	if !borrowed(t, s) {
		t.Fatal("not borrowed")
	}
	if len(cp.Skipped) != 1 || cp.Skipped[0].Path != "big.bin" {
		t.Errorf("skipped = %v, want big.bin", cp.Skipped)
	}
	out, err := s.run(context.Background(), nil, "ls-tree", "-r", "--name-only", cp.ID)
	if err != nil || strings.Contains(string(out), "big.bin") || !strings.Contains(string(out), "keep.txt") {
		t.Errorf("the snapshot holds %q (%v), want keep.txt and not big.bin", out, err)
	}
}

// TestBorrowRefusedWhenAnObjectIsMissing: a user's repository whose index
// names an object its store lacks (a broken or hostile repository) is
// not borrowed from, no pack is left in the store, and undo restores the
// workspace's bytes.
func TestBorrowRefusedWhenAnObjectIsMissing(t *testing.T) {
	s, ws := openCommitted(t, nil)
	if err := os.Remove(looseObject(t, ws, "keep.txt")); err != nil {
		t.Fatal(err)
	}
	cp := save(t, s, "before")
	if borrowed(t, s) {
		t.Error("borrowed an index whose object is missing")
	}
	undoRestoresUserFiles(t, s, ws, cp.ID)
}

// TestBorrowSplitCopy: the borrowed objects copied by several
// pack-objects side by side (as at 20,000 files and more) restore every
// file byte for byte, and a size that differs removes every pack.
func TestBorrowSplitCopy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		extra    map[string]string
		after    func(t *testing.T, ws string)
		borrowed bool
	}{
		{name: "clean", borrowed: true},
		{name: "converted", extra: map[string]string{".gitattributes": "*.txt text\n"}, after: func(t *testing.T, ws string) {
			gitIn(t, ws, "rm", "-q", ".gitattributes")
			gitIn(t, ws, "commit", "-qm", "no attributes")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ws := openCommitted(t, tc.extra)
			s.parts = 3
			if tc.after != nil {
				tc.after(t, ws)
			}
			cp := save(t, s, "before")
			packs, _ := filepath.Glob(filepath.Join(s.dir, "objects", "pack", "*.pack"))
			if tc.borrowed && len(packs) != 3 || !tc.borrowed && len(packs) != 0 {
				t.Errorf("packs after the first snapshot: %v, want %d", packs, map[bool]int{true: 3}[tc.borrowed])
			}
			undoRestoresUserFiles(t, s, ws, cp.ID)
		})
	}
}

func TestSplitLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want []string
	}{
		{"", 3, nil},
		{"a\n", 1, []string{"a\n"}},
		{"a\n", 3, []string{"a\n"}},
		{"a\nb\nc\nd\n", 2, []string{"a\nb\n", "c\nd\n"}},
		{"aaaa\nb\nc\n", 3, []string{"aaaa\n", "b\n", "c\n"}},
		{"a\nb\nc\n", 5, []string{"a\n", "b\n", "c\n"}},
	} {
		var got []string
		for _, p := range splitLines([]byte(tc.in), tc.n) {
			got = append(got, string(p))
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("splitLines(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
