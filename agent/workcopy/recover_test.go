package workcopy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRecoverNamesOwnCopiesAndCleansOldOnes(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	now := time.Now()
	own := filepath.Join(SessionDir("ab/../c d"), "tick-task-1")
	other := filepath.Join(SessionDir("other"), "tick-task-2")
	old := filepath.Join(SessionDir("old"), "tick-task-3")
	for _, d := range []string{own, other, old} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	weekAgo := now.Add(-MaxAge - time.Hour)
	if err := os.Chtimes(old, weekAgo, weekAgo); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(filepath.Base(filepath.Dir(own)), "/") || strings.Contains(filepath.Dir(own), "..") {
		t.Fatalf("the session id escaped its directory: %s", own)
	}
	kept, removed := Recover("ab/../c d", now)
	if len(kept) != 1 || kept[0] != own {
		t.Errorf("kept = %v, want only this session's copy %s", kept, own)
	}
	if len(removed) != 1 || removed[0] != old {
		t.Errorf("removed = %v, want the week-old copy %s", removed, old)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another session's recent copy was touched: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(old)); err == nil {
		t.Error("the emptied session directory of the old copy is left")
	}
	notes := RecoverNotes(kept, removed)
	if len(notes) != 2 || !strings.Contains(notes[0], own) || !strings.Contains(notes[1], "older than a week") {
		t.Errorf("notes = %q", notes)
	}
	if SessionDir("") != "" {
		t.Error("an empty session id has a copy directory")
	}
}

func TestRecoverFollowsNoLink(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	victim := filepath.Join(t.TempDir(), "tick-task-9")
	if err := os.MkdirAll(victim, 0o700); err != nil {
		t.Fatal(err)
	}
	weekAgo := time.Now().Add(-MaxAge - time.Hour)
	if err := os.Chtimes(victim, weekAgo, weekAgo); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(victim), filepath.Join(tmp, "tick-tasks-planted")); err != nil {
		t.Fatal(err)
	}
	Recover("x", time.Now())
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("Recover removed a directory through a link: %v", err)
	}
}
