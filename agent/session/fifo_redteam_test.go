//go:build unix

package session

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// mkfifo makes a FIFO at path, with no reader and no writer: opening it
// the ordinary way blocks until the other end comes.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("mkfifo %s: %v", path, err)
	}
}

// TestSessionFilesThatAreFIFOs: a FIFO where a session file or its lock's
// pid file is expected never makes tick wait for a writer or a reader
// that does not come (tick hung at start and in /resume before): the
// pid file is left unsaid, the lock's holder unnamed, and the FIFO is no
// session. On the code before the fix each case blocks forever (the
// package's test timeout reports it).
func TestSessionFilesThatAreFIFOs(t *testing.T) {
	t.Run("pid file of an open session", func(t *testing.T) {
		msgs, list := conversation()
		path := newSession(t, msgs, &list)
		if err := os.Remove(path + ".lock"); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		mkfifo(t, path+".lock")
		st, _, err := Open(path) // writes its pid: must not wait for a reader
		if err != nil {
			t.Fatalf("Open with a FIFO as the pid file: %v", err)
		}
		defer st.Close()
		_, _, err = Open(path) // reads the holder's pid: must not wait for a writer
		var le *LockedError
		if !errors.As(err, &le) || le.PID != 0 {
			t.Fatalf("second Open: %v, want a *LockedError naming no pid", err)
		}
	})
	t.Run("session file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		mkfifo(t, path)
		if ld, err := Load(path); err == nil || ld != nil {
			t.Fatalf("Load of a FIFO: %v, %v; want an error", ld, err)
		}
	})
	t.Run("listed", func(t *testing.T) {
		dir, ws := t.TempDir(), t.TempDir()
		st, err := Create(dir, ws, "m")
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		mkfifo(t, filepath.Join(filepath.Dir(st.Path()), "planted.jsonl"))
		all, err := List(dir, ws)
		if err != nil || len(all) != 1 {
			t.Fatalf("List: %d sessions, %v; want the one real session", len(all), err)
		}
	})
}
