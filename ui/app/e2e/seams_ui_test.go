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

// TestE2EDiffAfterUndo: /diff after /undo of the last item lists what the
// session still changed (the first item's new file), not the file the
// undone item edited and the undo restored.
func TestE2EDiffAfterUndo(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "conf.txt"), []byte("name = tick\nport = 80\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	items := func(first, second string) []todoItem {
		return []todoItem{{ID: "1", Text: "Write ALPHA", Status: first}, {ID: "2", Text: "Edit CONF", Status: second}}
	}
	script(t, srv,
		todoStep("Two steps", items("in_progress", "pending")...),
		step{reply: call("write_file", map[string]any{"path": "alpha.txt", "content": "alpha\n"})},
		todoStep("Two steps", items("completed", "in_progress")...),
		editStep(t, "conf.txt", "port = 80", "port = 8080"),
		todoStep("Two steps", items("completed", "completed")...),
		textStep("Both done."))
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("do both")
	p.waitFor("Both done.")
	p.prompt("/diff")
	p.waitFor("Changes since", "created  alpha.txt", "changed  conf.txt")
	p.send("Escape")
	p.waitGone("Changes since")
	p.prompt("/undo")
	p.waitFor("Undo #2 Edit CONF", "conf.txt")
	time.Sleep(deliberatePause)
	p.send("y")
	p.waitFor("undid #2")
	if b, _ := os.ReadFile(filepath.Join(ws, "conf.txt")); string(b) != "name = tick\nport = 80\n" {
		t.Fatalf("the undo did not restore conf.txt: %q", b)
	}
	p.prompt("/diff")
	scr := p.waitFor("Changes since", "created  alpha.txt")
	if strings.Contains(scr, "changed  conf.txt") {
		t.Fatalf("/diff after the undo still lists the restored file:\n%s", scr)
	}
	p.send("Escape")
	p.waitGone("Changes since")
	p.quit()
}
