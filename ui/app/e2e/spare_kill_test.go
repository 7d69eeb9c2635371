package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestKilledTickEndsItsCommands (the seam of -p, a tick that dies without
// a chance to clean up, and the sandbox's helpers, spare or not): tick
// killed by SIGKILL (the OOM killer, kill -9, a closed CI job) while a
// long command runs in the sandbox must not leave that command, or the
// helper that ran it, running: the kernel tells the helper its parent
// died, and the helper ends what it ran. Both commands run: the first in
// a helper of its own or a spare, the second in a spare.
func TestKilledTickEndsItsCommands(t *testing.T) {
	bin := sharedTick(t)
	for i, mode := range []string{"workspace-write", "danger-full-access"} {
		t.Run(mode, func(t *testing.T) {
			var rnd [6]byte
			_, _ = rand.Read(rnd[:])
			marker := "tick-e2e-" + hex.EncodeToString(rnd[:])
			t.Cleanup(func() { killMarked(marker) })
			srv := providertest.New(t)
			srv.Enqueue(
				call("bash", map[string]any{"command": "true"}),
				call("bash", map[string]any{"command": "exec -a " + marker + " sleep 60"}),
			)
			cmd := exec.Command(bin, "-p", "wait", "--yolo", "--no-session", "--sandbox", mode, "-C", t.TempDir())
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL}
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatalf("start tick: %v", err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			if !waitFor(20*time.Second, func() bool { return len(processesWith(marker)) > 0 }) {
				_ = cmd.Process.Kill()
				<-exited
				t.Fatalf("the sleep command never started (case %d); stderr:\n%s", i, errb.String())
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatalf("kill tick: %v", err)
			}
			<-exited
			if !waitFor(10*time.Second, func() bool { return len(processesWith(marker)) == 0 }) {
				t.Errorf("the command still runs after tick was killed: pids %v", processesWith(marker))
			}
		})
	}
}
