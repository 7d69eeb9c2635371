package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EInheritedDescriptorThenUndo is the seam of the descriptor tick
// inherited and /undo: tick runs in the terminal with fd 3 open for
// writing on a file outside the workspace (a shell's `3>>file`, no
// close-on-exec); the model's one command writes to >&3 and changes and
// makes files in the workspace. The write through fd 3 is refused, the
// workspace's are made; /undo then gives the workspace back as it was,
// and the file outside stays empty throughout.
func TestE2EInheritedDescriptorThenUndo(t *testing.T) {
	t.Parallel()
	needTmux(t)
	bin := sharedTick(t)
	srv := providertest.New(t)
	home, ws := t.TempDir(), t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "keep.txt"), []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script(t, srv,
		todoStep("Files", todoItem{ID: "1", Text: "Change FILES", Status: "in_progress"}),
		bashStep(`echo ESCAPED >&3 && echo wrote-$((6*7)); echo edited > keep.txt; echo new > made.txt; echo ran-$((6*7))`),
		todoStep("Files", todoItem{ID: "1", Text: "Change FILES", Status: "completed"}),
		textStep("Changed them."),
	)
	env := []string{
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=test-key",
	}
	// The shell opens fd 3 without close-on-exec and execs tick with it.
	p := startTmux(t, env, "/bin/sh", "-c", `exec "$0" "$@" 3>>'`+victim+`'`, bin, "--completion-reminder=false", "-C", ws, "--yolo")
	p.waitFor(placeholder)
	p.waitReady()
	if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/3", p.program())); err != nil || l != victim {
		t.Fatalf("tick's fd 3 is %q (%v), want the file outside %s", l, err, victim)
	}
	p.prompt("change the files")
	p.waitFor("Changed them.")
	res := strings.Join(toolResults(srv.Requests()), "\n")
	if !strings.Contains(res, "ran-42") {
		t.Fatalf("the command did not run to its end:\n%s", res)
	}
	if b, _ := os.ReadFile(victim); len(b) > 0 || strings.Contains(res, "wrote-42") {
		t.Fatalf("the command wrote through tick's inherited descriptor (file holds %q):\n%s", b, res)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "made.txt")); string(b) != "new\n" {
		t.Fatalf("the command's workspace write is missing: %q\n%s", b, res)
	}
	p.prompt("/undo")
	p.waitFor("Undo #1 Change FILES", "made.txt", "keep.txt", "restore these files")
	time.Sleep(deliberatePause)
	p.send("y")
	p.waitFor("undid #1")
	if _, err := os.Stat(filepath.Join(ws, "made.txt")); err == nil {
		t.Error("made.txt survived the undo")
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "keep.txt")); string(b) != "original\n" {
		t.Errorf("keep.txt = %q after the undo", b)
	}
	if b, _ := os.ReadFile(victim); len(b) > 0 {
		t.Errorf("the file outside the workspace holds %q after the undo", b)
	}
	checkValid(t, srv)
}
