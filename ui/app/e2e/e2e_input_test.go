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
	// Without the sandbox every command asks (in auto mode a sandboxed
	// command runs without a dialog).
	p := startAppAt(t, srv, t.TempDir(), ws, "--sandbox", "danger-full-access")
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
	time.Sleep(deliberatePause)
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

// TestE2ESlashCompletion: / lists the commands with a line each, tab
// completes /se to /sessions, and tab on an idle screen never sends.
func TestE2ESlashCompletion(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	p := startApp(t, srv)
	p.typeText("/")
	p.waitFor("/compact", "summarise old messages", "/help", "the keys and the commands")
	p.typeText("se")
	p.waitFor("/sessions", "resume another session") // the list has more commands than rows
	p.send("Tab")
	p.waitUntil("/sessions completed in the input", func(s string) bool {
		return strings.Contains(lastLines(s, 3), "› /sessions") && !strings.Contains(s, "/compact")
	})
	p.send("C-c") // clears the input
	p.waitFor(placeholder)
	p.typeText("hello there")
	p.send("Tab")
	p.waitFor("tab completes /commands")
	time.Sleep(300 * time.Millisecond)
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("tab on an idle screen sent %d requests", n)
	}
	if !strings.Contains(lastLines(p.screen(), 3), "hello there") {
		t.Fatalf("the input lost its text:\n%s", p.screen())
	}
}

// TestE2EPaste: a 200-line paste from tmux (which sends CR between the
// lines) is folded into one token in the input and reaches the model with
// LF line breaks.
func TestE2EPaste(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv, textStep("Got the paste."))
	p := startApp(t, srv)
	var lines []string
	for i := range 200 {
		lines = append(lines, fmt.Sprintf("pasted line %d", i+1))
	}
	text := strings.Join(lines, "\n")
	if out, err := p.tmux("set-buffer", "-b", "t", text); err != nil {
		t.Fatalf("tmux set-buffer: %v\n%s", err, out)
	}
	if out, err := p.tmux("paste-buffer", "-p", "-b", "t", "-t", p.name); err != nil {
		t.Fatalf("tmux paste-buffer: %v\n%s", err, out)
	}
	p.waitFor("[Pasted text #1 · 200 lines]")
	p.send("Enter")
	p.waitFor("Got the paste.")
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if got := reqs[0].LastUser(); got != text {
		t.Fatalf("the model got %q…, want the paste with LF line breaks", got[:min(len(got), 80)])
	}
}

// TestE2EHistoryAcrossRestarts: a prompt sent before quitting (ctrl+d on
// an empty input) is one ↑ away after a restart in the same workspace, and
// the history file is private.
func TestE2EHistoryAcrossRestarts(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv, textStep("First answer."))
	home, ws := t.TempDir(), t.TempDir()
	p := startAppAt(t, srv, home, ws)
	p.prompt("the prompt to remember")
	p.waitFor("First answer.", placeholder)
	p.send("C-d")
	if !waitFor(screenTimeout, func() bool { gone, _ := p.dead(); return gone }) {
		t.Fatalf("ctrl+d on an empty input did not quit:\n%s", p.screen())
	}
	files, _ := filepath.Glob(filepath.Join(home, "state", "tick", "history", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("history files %q, want one", files)
	}
	if st, err := os.Stat(files[0]); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("history file: %v, mode %v; want 0600", err, st.Mode().Perm())
	}

	p2 := startAppAt(t, srv, home, ws)
	p2.send("Up")
	p2.waitUntil("the prompt back in the input", func(s string) bool {
		return strings.Contains(lastLines(s, 3), "› the prompt to remember")
	})
}

// TestE2ERetry: after a failed request the hint names ctrl+r; ctrl+r sends
// the turn again without a second user message.
func TestE2ERetry(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		step{reply: providertest.Reply{Status: 400, Body: `{"error":{"message":"the server had a bad moment"}}`}},
		textStep("Fixed on the second try."),
	)
	p := startApp(t, srv)
	p.prompt("fix the build")
	p.waitFor("bad moment", "ctrl+r")
	p.send("C-r")
	scr := p.waitFor("Fixed on the second try.")
	if n := strings.Count(scr, "› fix the build"); n != 1 {
		t.Fatalf("the prompt shows %d times:\n%s", n, scr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	users := 0
	for _, m := range reqs[1].Messages {
		if m.Role == "user" {
			users++
		}
	}
	if users != 1 {
		t.Fatalf("the retry sent %d user messages, want 1", users)
	}
	checkValid(t, srv)
}

// TestE2EQuitKeys: ctrl+c on an empty idle input asks for a second press
// and says so; the second one quits.
func TestE2EQuitKeys(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	p := startApp(t, srv)
	p.send("C-c")
	p.waitFor("ctrl+c again to quit")
	if gone, _ := p.dead(); gone {
		t.Fatal("one ctrl+c quit")
	}
	p.send("C-c")
	if !waitFor(screenTimeout, func() bool { gone, _ := p.dead(); return gone }) {
		t.Fatalf("a second ctrl+c did not quit:\n%s", p.screen())
	}
}

// TestE2EPromptArgument: tick "fix the build" opens the app with that
// prompt sent.
func TestE2EPromptArgument(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv, textStep("Building fixed."))
	p := startAppAt(t, srv, t.TempDir(), t.TempDir(), "fix the build")
	p.waitFor("› fix the build", "Building fixed.")
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].LastUser() != "fix the build" {
		t.Fatalf("requests %d, want one with the prompt", len(reqs))
	}
}

// TestE2ELiveOutput: a command that prints for a few seconds shows its
// lines under its tool line while it runs; ctrl+o shows all of them live.
func TestE2ELiveOutput(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		bashStep("for i in 1 2 3 4 5 6 7 8; do echo progress-$i; sleep 0.4; done"),
		textStep("The loop finished."),
	)
	p := startApp(t, srv, "--yolo")
	p.prompt("run the loop")
	scr := p.waitFor("progress-3", "running bash")
	if strings.Contains(scr, "progress-8") || strings.Contains(scr, "The loop finished.") {
		t.Fatalf("the output came only at the end:\n%s", scr)
	}
	p.waitUntil("earlier lines folded while running", func(s string) bool {
		return strings.Contains(s, "lines above (ctrl+o shows all)") && !strings.Contains(s, "progress-1\n") && strings.Contains(s, "running bash")
	})
	p.send("C-o")
	p.waitUntil("every line shown while running", func(s string) bool {
		return strings.Contains(s, "progress-1") && strings.Contains(s, "progress-5") && strings.Contains(s, "running bash")
	})
	p.waitFor("progress-8", "The loop finished.")
}

// TestE2EApprovalLongCommand: a 500-character command is shown whole: the
// dialog wraps it, says it scrolls, and pgdn reaches its tail; at 80x24 and
// 60x20 the answer keys stay on screen.
func TestE2EApprovalLongCommand(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	cmd := "echo start && " + strings.Repeat("true && ", 60) + "echo DANGER-TAIL"
	script(t, srv, bashStep(cmd), textStep("Ran it."))
	p := startApp(t, srv, "--sandbox", "danger-full-access") // every command asks
	p.prompt("run the long one")
	p.waitFor("Allow bash?", "echo start")
	for _, size := range [][2]int{{80, 24}, {60, 20}} {
		p.resize(size[0], size[1])
		p.waitUntil(fmt.Sprintf("the answer keys and the scroll note at %dx%d", size[0], size[1]), func(s string) bool {
			return strings.Contains(s, "y allow once") && strings.Contains(s, "n deny") && strings.Contains(s, "esc deny") &&
				strings.Contains(s, "scrolls") && !strings.Contains(s, "DANGER-TAIL")
		})
	}
	time.Sleep(deliberatePause) // the dialog takes keys after a pause
	for i := 0; i < 30 && !strings.Contains(p.screen(), "DANGER-TAIL"); i++ {
		p.send("PageDown")
		time.Sleep(100 * time.Millisecond)
	}
	p.waitFor("DANGER-TAIL", "y allow once")
	time.Sleep(deliberatePause)
	p.send("y")
	p.waitFor("Ran it.")
}
