package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// The end-to-end tests of the input: approvals never answered by typing,
// tab completion, pastes, history across restarts, retry, quitting.

// TestE2EApprovalWhileTyping: a user types while the turn runs and the
// approval dialog appears mid-word. Nothing typed answers it ("yay all
// answered" holds y, a and n): the keys go to the input, the dialog says
// so, and n after a pause denies.
func TestE2EApprovalWhileTyping(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	hold := newGate(t)
	first := bashStep("touch approved-by-accident")
	first.gate = hold
	script(t, srv, first, textStep("Denied, fine."))
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws)
	p.prompt("start")
	hold.waitReached(t)

	// Type at a typist's pace (a key every ~60 ms) while the model answers,
	// until the dialog is up and 20 more keys went in.
	hold.open()
	text, after := "hello also check yarn ", "yay all answered "
	shown := false
	for i, n := 0, 0; i < 300 && n < len(after); i++ {
		if !shown {
			p.typeText(string(text[i%len(text)]))
			shown = strings.Contains(p.screen(), "Allow bash?")
		} else {
			p.typeText(string(after[n]))
			n++
		}
		time.Sleep(60 * time.Millisecond)
	}
	if !shown {
		t.Fatalf("the approval dialog never showed:\n%s", p.screen())
	}
	scr := p.waitFor("Allow bash?", "your typing went to the input")
	if _, err := os.Stat(filepath.Join(ws, "approved-by-accident")); err == nil {
		t.Fatalf("typing answered the dialog: the command ran:\n%s", scr)
	}
	time.Sleep(time.Second) // a deliberate pause
	p.send("n")
	p.waitFor("Reason")
	p.send("Enter")
	p.waitFor("Denied, fine.")
	if _, err := os.Stat(filepath.Join(ws, "approved-by-accident")); err == nil {
		t.Fatal("the denied command ran")
	}
	if res := toolResults(srv.Requests()); len(res) != 1 || !strings.Contains(res[0], "denied") {
		t.Fatalf("tool results %q, want one denial", res)
	}
	if scr := p.screen(); !strings.Contains(lastLines(scr, 4), "yay all") {
		t.Fatalf("what was typed is not in the input:\n%s", scr)
	}
}

// lastLines returns the last n non-empty lines of a screen.
func lastLines(screen string, n int) string {
	var out []string
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			out = append([]string{lines[i]}, out...)
		}
	}
	return strings.Join(out, "\n")
}
