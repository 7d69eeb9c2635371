package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/ui/app"

	"github.com/tick-agent/tick/provider/providertest"
)

// processesWith returns the pids whose command line contains marker.
func processesWith(marker string) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []string
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			pids = append(pids, filepath.Base(d))
		}
	}
	return pids
}

// waitFor polls cond every 20ms until it holds or timeout passes.
func waitFor(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSIGINTDuringCommand runs the real binary with -p against the fake
// server, sends SIGINT while the model's `sleep 30` runs, and checks that
// tick exits 130 and the sleep process is gone.
func TestSIGINTDuringCommand(t *testing.T) {
	bin := sharedTick(t)
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	marker := "tick-e2e-" + hex.EncodeToString(rnd[:])

	srv := providertest.New(t)
	// exec -a puts the marker in the sleep process's own command line
	// (bash would otherwise exec sleep and drop a trailing comment).
	srv.Enqueue(call("bash", map[string]any{"command": "exec -a " + marker + " sleep 30"}))

	cmd := exec.Command(bin, "-p", "wait a while", "--yolo", "-C", t.TempDir())
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatalf("start tick: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		for _, pid := range processesWith(marker) {
			if p, err := os.FindProcess(atoi(pid)); err == nil {
				_ = p.Kill()
			}
		}
	})

	if !waitFor(20*time.Second, func() bool { return len(processesWith(marker)) > 0 }) {
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("the sleep command never started; stderr:\n%s", errb.String())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatalf("send SIGINT: %v", err)
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != app.ExitInterrupted {
			t.Errorf("tick ended with %v, want exit status 130; stderr:\n%s", err, errb.String())
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("tick did not exit after SIGINT; stderr:\n%s", errb.String())
	}
	if pids := processesWith(marker); len(pids) > 0 {
		t.Errorf("the sleep process is still running after tick exited: pids %v", pids)
	}
	if !strings.Contains(errb.String(), "tick: interrupted") {
		t.Errorf("stderr does not say it was interrupted:\n%s", errb.String())
	}
	if !strings.Contains(errb.String(), "→ bash  exec -a "+marker) {
		t.Errorf("stderr does not show the command:\n%s", errb.String())
	}
	if out.Len() != 0 {
		t.Errorf("stdout = %q, want nothing", out.String())
	}
	checkValid(t, srv)
}

// atoi parses a pid, 0 when it is not a number.
func atoi(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0
		}
		n = n*10 + int(r-'0')
	}
	return n
}
