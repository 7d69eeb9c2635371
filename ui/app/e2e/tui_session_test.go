package e2e

import (
	"github.com/tick-agent/tick/ui/app/apptest"

	"os"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestTUIContinue saves a session headless, damages its last line the way
// a crash would, reopens it with `tick -c` in the full-screen app (in
// tmux) and checks that the transcript, the todo list and the startup
// notices come back; that the /sessions picker opens and closes; that /new
// starts a fresh session whose first prompt creates a second file; and
// that the picker then resumes the first session, whose transcript comes
// back and which the next prompt continues.
func TestTUIContinue(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	env, state := apptest.StateEnv(t)
	ws := t.TempDir()
	srv.Enqueue(
		todoReply(todoCall("Greet the user", "1:completed:Say hello", "2:pending:Say goodbye")),
		providertest.Reply{Text: "Hello from the first run."},
	)
	mustRun(t, env, "-p", "greet me please", "--base-url", srv.URL, "-C", ws)
	first := apptest.ListSessions(t, state, ws)
	if len(first) != 1 {
		t.Fatalf("%d sessions, want 1", len(first))
	}
	appendHalfLine(t, first[0].Path)

	p := startTmux(t, []string{
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + env["HOME"],
		"XDG_STATE_HOME=" + state, "OPENAI_BASE_URL=" + srv.URL,
	}, bin, "-c", "-C", ws)
	p.waitFor("greet me please", "Hello from the first run.", "1/2",
		"resumed session "+first[0].ID, "ignored a truncated last line")

	p.send("/sessions", "Enter")
	p.waitFor("Sessions · this workspace", first[0].ID, "(current) greet me please", "esc close")
	p.send("Escape")
	p.waitGone("esc close")

	p.send("/new", "Enter")
	scr := p.waitFor("new session")
	if strings.Contains(scr, "Hello from the first run.") {
		t.Errorf("/new left the old transcript on screen:\n%s", scr)
	}
	srv.Enqueue(providertest.Reply{Text: "A fresh start."})
	p.send("second conversation", "Enter")
	p.waitFor("A fresh start.")
	req := apptest.LastRequest(t, srv)
	if strings.Contains(dump(req.Messages), "greet me please") {
		t.Errorf("the request after /new holds the old conversation:\n%s", dump(req.Messages))
	}
	all := apptest.ListSessions(t, state, ws)
	if len(all) != 2 || all[0].FirstPrompt != "second conversation" || all[1].ID != first[0].ID {
		t.Fatalf("sessions after /new = %+v; want the new one, then the first", all)
	}

	// The picker lists both; move to the older one and resume it.
	p.send("/sessions", "Enter")
	p.waitFor("(current) second conversation", "greet me please", "esc close")
	p.send("Up")
	p.waitUntil("the current session selected", selectedRow("second conversation"))
	p.send("Down")
	p.waitUntil("the first session selected", selectedRow("greet me please"))
	p.send("Enter")
	p.waitFor("resumed session "+first[0].ID, "greet me please", "Hello from the first run.", "1/2")
	p.waitGone("esc close", "A fresh start.")

	srv.Enqueue(providertest.Reply{Text: "Carrying on."})
	p.send("carry on", "Enter")
	p.waitFor("Carrying on.")
	sent := dump(apptest.LastRequest(t, srv).Messages)
	if !strings.Contains(sent, "greet me please") || strings.Contains(sent, "second conversation") {
		t.Errorf("the request after resuming does not continue the first session:\n%s", sent)
	}
	after := apptest.ListSessions(t, state, ws)
	if len(after) != 2 || after[0].ID != first[0].ID || after[0].Turns <= first[0].Turns {
		t.Errorf("sessions after resuming = %+v; want the first one continued (more than %d turns)", after, first[0].Turns)
	}
	checkValid(t, srv)
}

// selectedRow reports whether the picker's selected row (marked "›")
// holds text.
func selectedRow(text string) func(string) bool {
	return func(scr string) bool {
		for _, l := range strings.Split(scr, "\n") {
			if strings.Contains(l, text) && strings.Contains(l, "│ › ") {
				return true
			}
		}
		return false
	}
}

// appendHalfLine appends the start of a line to the session file at path,
// as a kill in the middle of a write leaves it.
func appendHalfLine(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(`{"type":"message","message":{"role":"assis`); err != nil {
		t.Fatal(err)
	}
}
