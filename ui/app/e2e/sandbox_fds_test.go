package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EInheritedDescriptorStaysOut: tick started with a descriptor open
// on a file outside the workspace (fd 3, without close-on-exec, as a
// shell's `3>file` leaves it) runs the model's command under the small
// helper, and the command cannot write through that descriptor, confined
// or not.
func TestE2EInheritedDescriptorStaysOut(t *testing.T) {
	bin := sharedTick(t)
	for _, mode := range []string{"workspace-write", "read-only", "danger-full-access"} {
		t.Run(mode, func(t *testing.T) {
			victim := filepath.Join(t.TempDir(), "victim")
			f, err := os.Create(victim)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			srv := providertest.New(t)
			srv.Enqueue(
				call("bash", map[string]any{"command": `tr '\0' ' ' < /proc/$PPID/cmdline | head -c 40; echo; echo ESCAPED >&3 && echo wrote-$((6*7))`}),
				providertest.Reply{Text: "done"},
			)
			args, _ := headless(t, srv, "write through fd 3", "--yolo", "--no-session", "--sandbox", mode)
			cmd := exec.Command(bin, args...)
			cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, pipeEnv(t)...)
			cmd.ExtraFiles = []*os.File{f} // fd 3 in tick, without close-on-exec
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			_ = cmd.Run() // the command's failure may fail the run; what it wrote is the test
			res := strings.Join(toolResults(srv.Requests()), "\n")
			if !strings.HasPrefix(res, "/proc/self/fd/") {
				t.Errorf("the command did not run under the small helper:\n%s\nstderr:\n%s", res, errb.String())
			}
			if b, _ := os.ReadFile(victim); len(b) > 0 || strings.Contains(res, "wrote-42") {
				t.Errorf("the command wrote through tick's inherited descriptor (file holds %q):\n%s", b, res)
			}
		})
	}
}
