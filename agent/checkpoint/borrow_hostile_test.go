package checkpoint

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// looseObject returns the path of the user's loose object that holds
// rel's committed bytes.
func looseObject(t *testing.T, ws, rel string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", ws, "rev-parse", "HEAD:"+rel).Output()
	if err != nil {
		t.Fatal(err)
	}
	oid := strings.TrimSpace(string(out))
	return filepath.Join(ws, ".git", "objects", oid[:2], oid[2:])
}

// TestBorrowNeverWaitsOnAHostileObject: a user's repository whose loose
// object is a FIFO (or a link to one outside the repository) must not
// hold the first snapshot forever: the copy refuses to read anything but
// a regular file, the snapshot hashes the files instead, and undo
// restores every file byte for byte.
func TestBorrowNeverWaitsOnAHostileObject(t *testing.T) {
	for _, kind := range []string{"fifo", "link to a fifo", "index a fifo", "alternates elsewhere"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			s, ws := openCommitted(t, nil)
			obj := looseObject(t, ws, "keep.txt")
			fifo := obj
			switch kind {
			case "link to a fifo":
				fifo = filepath.Join(t.TempDir(), "fifo")
				if err := os.Symlink(fifo, obj+".tmp"); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(obj+".tmp", obj); err != nil {
					t.Fatal(err)
				}
			case "index a fifo":
				fifo = filepath.Join(ws, ".git", "index")
				if err := os.Remove(fifo); err != nil {
					t.Fatal(err)
				}
			case "alternates elsewhere": // the object only in another store, as a FIFO there
				other := t.TempDir()
				fifo = filepath.Join(other, filepath.Base(filepath.Dir(obj)), filepath.Base(obj))
				if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
					t.Fatal(err)
				}
				write(t, ws, ".git/objects/info/alternates", other+"\n")
				if err := os.Remove(obj); err != nil {
					t.Fatal(err)
				}
			default:
				if err := os.Remove(obj); err != nil {
					t.Fatal(err)
				}
			}
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			var cp Checkpoint
			go func() {
				var err error
				cp, err = s.Save(ctx, "before")
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(time.Minute): // a hang, not a slow machine
				f, _ := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0) // let git go
				if f != nil {
					f.Close()
				}
				t.Fatal("the first snapshot waits on a FIFO in the user's object store")
			}
			undoRestoresUserFiles(t, s, ws, cp.ID)
		})
	}
}

// TestBorrowedObjectThatLies: a user's loose object whose bytes are
// another object's of the same size (git reads it without checking its
// name) must not become what undo writes back: undo restores the file
// byte for byte, or refuses.
func TestBorrowedObjectThatLies(t *testing.T) {
	ctx := context.Background()
	s, ws := openCommitted(t, nil)
	obj := looseObject(t, ws, "keep.txt")
	lie := exec.Command("git", "-C", ws, "hash-object", "-w", "--stdin")
	lie.Stdin = strings.NewReader("ONE\nTWO\n") // keep.txt's size, other bytes
	b, err := lie.Output()
	if err != nil {
		t.Fatal(err)
	}
	other := strings.TrimSpace(string(b))
	raw, err := os.ReadFile(filepath.Join(ws, ".git", "objects", other[:2], other[2:]))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(obj, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(obj, raw, 0o444); err != nil {
		t.Fatal(err)
	}
	cp := save(t, s, "before")
	write(t, ws, "keep.txt", "overwritten\n")
	if _, err := s.Restore(ctx, cp.ID); err != nil {
		t.Logf("undo refused: %v", err)
		return
	}
	if got := read(t, ws, "keep.txt"); got != userFiles["keep.txt"] {
		t.Errorf("keep.txt after undo = %q, want %q: the lying object was borrowed", got, userFiles["keep.txt"])
	}
}

// TestBorrowReadsOnlyInsideTheRepository: a user's git directory whose
// index or object store is a symbolic link out of it (to another
// repository's) is not borrowed from: the snapshot hashes the files, and
// undo restores them byte for byte.
func TestBorrowReadsOnlyInsideTheRepository(t *testing.T) {
	for _, name := range []string{"index", "objects"} {
		t.Run(name, func(t *testing.T) {
			s, ws := openCommitted(t, nil)
			elsewhere := filepath.Join(t.TempDir(), name)
			own := filepath.Join(ws, ".git", name)
			if err := os.Rename(own, elsewhere); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere, own); err != nil {
				t.Fatal(err)
			}
			cp := save(t, s, "before")
			if borrowed(t, s) {
				t.Errorf("borrowed through the link %s -> %s", own, elsewhere)
			}
			undoRestoresUserFiles(t, s, ws, cp.ID)
		})
	}
}
