package app

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tickcfg "github.com/tick-agent/tick/agent/config"
)

// TestUndoStopWaitsForTheSnapshot quits while the first undo snapshot is
// still running (its git add stalls) and checks that stopping undo ends
// the snapshot before it returns: no git left in the workspace, and the
// checkpoint lock free, so nothing writes under the state directory once
// tick has exited (an end-to-end test's HOME was removed under a
// snapshot still writing).
func TestUndoStopWaitsForTheSnapshot(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("undo needs git: %v", err)
	}
	bin := t.TempDir()
	// git add stalls; a helper holding its output open makes the snapshot
	// outlive the kill by a second, so that a stop that does not wait
	// returns while the snapshot still holds the lock.
	slow := "#!/bin/sh\ncase \"$1\" in add) sleep 1 & exec sleep 60;; esac\nexec " + git + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(slow), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	ws, state := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := config{Run: tickcfg.Run{Args: tickcfg.Args{Workspace: ws}}, live: live{drawn: make(chan struct{})}}
	stop := openUndo(&cfg, func(k string) string { return map[string]string{"XDG_STATE_HOME": state}[k] })
	if cfg.undo == nil {
		t.Fatalf("undo is off: %q", cfg.notices)
	}
	close(cfg.drawn) // the first frame: the snapshot starts
	deadline := time.Now().Add(10 * time.Second)
	for !stalled(ws) {
		if time.Now().After(deadline) {
			t.Fatal("the first snapshot never ran git add")
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	if pids := processesIn(ws); len(pids) > 0 {
		t.Errorf("the snapshot's git (pids %v) still runs after stop returned", pids)
	}
	locks, _ := filepath.Glob(filepath.Join(state, "tick", "checkpoints", "*", "tick.lock"))
	if len(locks) != 1 {
		t.Fatalf("checkpoint locks = %q, want one", locks)
	}
	f, err := os.Open(locks[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Errorf("the snapshot still holds the checkpoint lock after stop returned: %v", err)
	}
}

// processesIn returns the live (not zombie) processes whose working
// directory is dir.
func processesIn(dir string) []int {
	var pids []int
	cwds, _ := filepath.Glob("/proc/[0-9]*/cwd")
	for _, cwd := range cwds {
		if target, err := os.Readlink(cwd); err != nil || target != dir {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(cwd)))
		b, err := os.ReadFile(filepath.Join(filepath.Dir(cwd), "stat"))
		if f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])); err == nil && len(f) > 0 && f[0] != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// stalled reports whether the fake git add (sleep 60) runs in dir.
func stalled(dir string) bool {
	for _, pid := range processesIn(dir) {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && string(b) == "sleep\x0060\x00" {
			return true
		}
	}
	return false
}
