package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2ESuspendOverApproval: ctrl+z while "Allow bash?" waits stops tick
// as a job without answering (the command has not run); after `fg` the
// question is back on the repainted screen and a deliberate y allows it.
// On code where the dialog took every key, ctrl+z did nothing there.
func TestE2ESuspendOverApproval(t *testing.T) {
	srv := providertest.New(t)
	script(t, srv, bashStep("touch allowed-after-fg"), textStep("Ran it."))
	home, ws := t.TempDir(), t.TempDir()
	bin := sharedTick(t)
	env := []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home, "PS1=shell$ ",
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=test-key"}
	p := startTmux(t, env, "bash", "--norc", "--noprofile", "-i")
	p.waitFor("shell$")
	p.typeText(strings.Join(quoteAll([]string{bin, "--completion-reminder=false", "-C", ws, "--sandbox", "danger-full-access"}), " "))
	p.send("Enter")
	p.waitFor(placeholder)
	p.waitReady()
	p.prompt("start")
	p.waitFor("Allow bash?")
	time.Sleep(deliberatePause) // a deliberate key, not typing
	p.send("C-z")
	p.waitFor("Stopped")
	ran := filepath.Join(ws, "allowed-after-fg")
	if _, err := os.Stat(ran); err == nil {
		t.Fatalf("ctrl+z answered the approval: the command ran:\n%s", p.screen())
	}
	p.typeText("fg")
	p.send("Enter")
	p.waitFor("Allow bash?")
	time.Sleep(deliberatePause)
	p.send("y")
	p.waitFor("Ran it.")
	if _, err := os.Stat(ran); err != nil {
		t.Fatalf("y after fg did not allow the command: %v\n%s", err, p.screen())
	}
}
