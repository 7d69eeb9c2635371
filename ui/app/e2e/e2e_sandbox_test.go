package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2ESandboxRerun: in auto mode a command runs in the sandbox without
// a dialog; when the sandbox blocks it, the app offers to run it again
// without the sandbox, and y does. shift+tab goes through plan mode
// (commands read-only) to ask mode, shown in the status bar.
func TestE2ESandboxRerun(t *testing.T) {
	t.Parallel()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	// Outside the workspace, and not under /tmp (hidden in the sandbox).
	outside, err := os.MkdirTemp(home, ".tick-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	target := filepath.Join(outside, "made")
	srv := providertest.New(t)
	script(t, srv,
		bashStep("echo inside > inside.txt"),
		bashStep("echo x > "+target+" && echo wrote-outside"),
		textStep("All done."))
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws)
	p.waitFor("auto · sandbox: workspace-write")
	p.prompt("write two files")
	p.waitFor("Run bash again without the sandbox?", "the sandbox refused a write outside the workspace")
	if _, err := os.Stat(filepath.Join(ws, "inside.txt")); err != nil {
		t.Fatalf("the command inside the workspace did not run without a dialog: %v", err)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the sandbox let the command write outside the workspace")
	}
	time.Sleep(deliberatePause) // a deliberate answer
	p.send("y")
	p.waitFor("wrote-outside", "All done.")
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("the command allowed outside the sandbox did not write: %v", err)
	}
	if res := toolResults(srv.Requests()); len(res) != 2 || !strings.Contains(res[1], "run again outside the sandbox with the user's approval") {
		t.Errorf("tool results %q", res)
	}
	p.send("BTab") // auto → plan (commands read-only) → ask
	p.waitFor("plan · sandbox: read-only")
	p.send("BTab")
	p.waitFor("ask · sandbox: workspace-write")
}
