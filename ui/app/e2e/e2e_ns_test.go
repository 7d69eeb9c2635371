package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2ECommandCannotReadTheTerminal: in auto mode a sandboxed command
// tries, for a few seconds, to read the user's terminal through every
// /dev/pts entry and /dev/tty while the user types into the pane. It opens
// none of them, captures nothing, and every key reaches tick's input.
func TestE2ECommandCannotReadTheTerminal(t *testing.T) {
	t.Parallel()
	const reader = `for f in /dev/tty /dev/pts/*; do case $f in */ptmx) continue;; esac; ` +
		`if (exec 3<"$f") 2>/dev/null; then echo "opened $f"; (timeout 10 cat "$f" >> captured.txt &); fi; done; ` +
		`sleep 10; echo "reader-done"`
	srv := providertest.New(t)
	script(t, srv, bashStep(reader), textStep("All done."))
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws)
	p.waitFor("auto · sandbox: workspace-write")
	p.prompt("read the terminal")
	p.waitFor("bash  for f in /dev/tty") // the command is running (for 10 s)
	time.Sleep(time.Second)              // a deliberate pause: the readers are open by now
	p.typeText("my password is hunter2")
	// Every key reaches tick's input, while the command still runs.
	if scr := p.waitFor("my password is hunter2"); strings.Contains(scr, "⎿ reader-done") {
		t.Fatalf("the keys were typed after the command ended:\n%s", scr)
	}
	p.waitFor("All done.")
	if b, err := os.ReadFile(filepath.Join(ws, "captured.txt")); err == nil && len(b) > 0 {
		t.Errorf("the command read the user's keys: %q", b)
	}
	for _, res := range toolResults(srv.Requests()) {
		if strings.Contains(res, "opened") || strings.Contains(res, "hunter2") {
			t.Errorf("a sandboxed command opened the terminal:\n%s", res)
		}
	}
}
