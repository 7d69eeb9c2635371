package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// The end-to-end tests of issue 30's seams seen from the keyboard: typing
// over an open dialog, user items in a plan, rewinds and nested
// repositories.

// TestE2ETypingOverDialogAnswersNothing (issue 30 §7): with "Allow bash?"
// open for a second, typing "also do it" at a typist's pace answers
// nothing, not even with its first key after the rest: the command does
// not run, nothing is allowed for the session, and the input holds the
// whole text.
func TestE2ETypingOverDialogAnswersNothing(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv, bashStep("touch allowed-by-typing"), textStep("Denied, fine."))
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws, "--sandbox", "danger-full-access")
	p.prompt("start")
	p.waitFor("Allow bash?")
	time.Sleep(deliberatePause) // the dialog has been open a while
	for _, r := range "also do it" {
		p.typeText(string(r))
		time.Sleep(40 * time.Millisecond)
	}
	time.Sleep(deliberatePause)
	scr := p.waitFor("Allow bash?", "your typing went to the input")
	if _, err := os.Stat(filepath.Join(ws, "allowed-by-typing")); err == nil {
		t.Fatalf("typing answered the dialog: the command ran:\n%s", scr)
	}
	if strings.Contains(scr, "allowed `") {
		t.Fatalf("typing allowed something for the session:\n%s", scr)
	}
	if !strings.Contains(lastLines(scr, 4), "also do it") {
		t.Fatalf("the input does not hold the whole text:\n%s", scr)
	}
	p.send("n")
	p.waitFor("Reason")
	p.send("Enter")
	p.waitFor("Denied, fine.")
	if res := toolResults(srv.Requests()); len(res) != 1 || !strings.Contains(res[0], "denied") {
		t.Fatalf("tool results %q, want one denial", res)
	}
}
