//go:build unix

package session

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
)

func TestOpenLocked(t *testing.T) {
	msgs, list := conversation()
	path := newSession(t, msgs, &list)
	st, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Open(path)
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || le.PID != os.Getpid() {
		t.Fatalf("second Open: %v, want a *LockedError naming pid %d", err, os.Getpid())
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("the error does not name the pid: %v", err)
	}
	// The refused Open changed nothing: the holder still writes whole lines.
	if err := st.Message(provider.Message{Role: provider.RoleUser, Content: "still mine"}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the pid file is left after Close: %v", err)
	}
	st2, ld, err := Open(path)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	defer st2.Close()
	if n := len(ld.History); n != len(msgs)+1 {
		t.Errorf("%d messages, want %d", n, len(msgs)+1)
	}
}

func TestCreateLocks(t *testing.T) {
	st, err := Create(t.TempDir(), t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, _, err := Open(st.Path()); !errors.Is(err, ErrLocked) {
		t.Fatalf("Open of a created session: %v, want ErrLocked", err)
	}
}

// TestStaleLock kills a process that holds a session open: its lock goes
// with it, and the pid file it left does not block.
func TestStaleLock(t *testing.T) {
	if os.Getenv("TICK_SESSION_HOLD") != "" {
		st, _, err := Open(os.Getenv("TICK_SESSION_HOLD"))
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked", st.ID())
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	msgs, list := conversation()
	path := newSession(t, msgs, &list)
	cmd := exec.Command(os.Args[0], "-test.run=^TestStaleLock$")
	cmd.Env = append(os.Environ(), "TICK_SESSION_HOLD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), "locked") {
		_ = cmd.Process.Kill()
		t.Fatalf("the holder said %q", buf[:n])
	}
	var le *LockedError
	if _, _, err := Open(path); !errors.As(err, &le) || le.PID != cmd.Process.Pid {
		t.Errorf("Open while another process holds it: %v, want pid %d", err, cmd.Process.Pid)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if _, err := os.Stat(path + ".lock"); err != nil {
		t.Fatalf("the killed holder left no pid file to test with: %v", err)
	}
	st, _, err := Open(path)
	if err != nil {
		t.Fatalf("Open after the holder was killed: %v", err)
	}
	st.Close()
}

func TestFork(t *testing.T) {
	msgs, list := conversation()
	path := newSession(t, msgs, &list)
	holder, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	st, ld, err := Fork(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.ID() == ld.Info.ID || filepath.Dir(st.Path()) != filepath.Dir(path) {
		t.Fatalf("fork %s (%s) of %s", st.ID(), st.Path(), ld.Info.ID)
	}
	if !strings.Contains(strings.Join(ld.Warnings, "\n"), "forked session "+ld.Info.ID) {
		t.Errorf("warnings %q do not say it was forked", ld.Warnings)
	}
	if err := st.Message(provider.Message{Role: provider.RoleUser, Content: "in the fork"}); err != nil {
		t.Fatal(err)
	}
	forked, err := Load(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(forked.History) != len(msgs)+1 || forked.Todos.Goal != list.Goal {
		t.Errorf("the fork has %d messages and goal %q", len(forked.History), forked.Todos.Goal)
	}
	orig, err := Load(path)
	if err != nil || len(orig.History) != len(msgs) {
		t.Errorf("the original changed: %v, %d messages", err, len(orig.History))
	}
}

func TestNoFollow(t *testing.T) {
	msgs, list := conversation()
	path := newSession(t, msgs, &list)
	link := filepath.Join(filepath.Dir(path), "20990101T000000Z-linkedid.jsonl")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(link); err == nil {
		t.Error("Load followed a symbolic link")
	}
	if _, _, err := Open(link); err == nil {
		t.Error("Open followed a symbolic link")
	}
	ld, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	all, err := List(filepath.Dir(filepath.Dir(path)), ld.Info.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || all[0].Path != path {
		t.Errorf("List = %+v, want only the real file", all)
	}
}

// TestLockOfAStaleHolder: a lock still held while its holder cannot be
// named is tried again until it is released, instead of refusing at once:
//   - the pid file names a process that is gone (a killed tick's command
//     still starting holds a copy of the file until its exec);
//   - the pid file is missing (Close removes it while it still holds the
//     lock, then lets the lock go; seen as a flake of the first case,
//     whose holder closed while Open was retrying).
//
// Each case fails on code that refused on the first try.
func TestLockOfAStaleHolder(t *testing.T) {
	tests := []struct {
		name  string
		stale func(t *testing.T, pidFile string) // leaves the held lock's pid file stale
	}{
		{"gone holder", func(t *testing.T, pidFile string) {
			dead := exec.Command("true")
			if err := dead.Run(); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(pidFile, []byte(fmt.Sprintf("%d\n", dead.Process.Pid)), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"closing holder", func(t *testing.T, pidFile string) {
			if err := os.Remove(pidFile); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs, list := conversation()
			path := newSession(t, msgs, &list)
			holder, _, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			tt.stale(t, path+".lock")
			released := make(chan error, 1)
			go func() {
				time.Sleep(staleWait / 4)
				released <- holder.Close()
			}()
			st, _, err := Open(path)
			if err != nil {
				t.Fatalf("Open while a stale holder's lock is released: %v", err)
			}
			defer st.Close()
			if err := <-released; err != nil {
				t.Fatal(err)
			}
		})
	}
}
