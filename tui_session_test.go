package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// tmuxPane is the real binary running in a detached tmux session.
type tmuxPane struct {
	t    *testing.T
	name string
}

// startTmux runs argv with env in a new tmux session of 120x40 cells.
func startTmux(t *testing.T, env []string, argv ...string) *tmuxPane {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	name := fmt.Sprintf("tick-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	shell := "exec env -i " + strings.Join(quoteAll(env), " ") + " " + strings.Join(quoteAll(argv), " ")
	cmd := exec.Command("tmux", "new-session", "-d", "-s", name, "-x", "120", "-y", "40", shell)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v\n%s", err, out)
	}
	p := &tmuxPane{t: t, name: name}
	t.Cleanup(func() { _ = exec.Command("tmux", "kill-session", "-t", name).Run() })
	return p
}

// quoteAll quotes each string for sh.
func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return out
}

// screen returns the visible pane.
func (p *tmuxPane) screen() string {
	out, _ := exec.Command("tmux", "capture-pane", "-p", "-t", p.name).Output()
	return string(out)
}

// waitFor waits until the screen holds every one of wants, failing the
// test with the screen after 10 seconds.
func (p *tmuxPane) waitFor(wants ...string) string {
	p.t.Helper()
	var scr string
	ok := waitFor(10*time.Second, func() bool {
		scr = p.screen()
		for _, w := range wants {
			if !strings.Contains(scr, w) {
				return false
			}
		}
		return true
	})
	if !ok {
		p.t.Fatalf("the screen never showed %q:\n%s", wants, scr)
	}
	return scr
}

// send types keys (tmux key names, e.g. "Enter").
func (p *tmuxPane) send(keys ...string) {
	p.t.Helper()
	if out, err := exec.Command("tmux", append([]string{"send-keys", "-t", p.name}, keys...)...).CombinedOutput(); err != nil {
		p.t.Fatalf("tmux send-keys: %v\n%s", err, out)
	}
}

// TestTUIContinue saves a session headless, reopens it with `tick -c` in
// the full-screen app (in tmux) and checks that the transcript and the
// todo list come back, that /sessions lists it, and that /new starts a
// fresh session whose first prompt creates a second file.
func TestTUIContinue(t *testing.T) {
	bin := buildTick(t)
	srv := providertest.New(t)
	env, state := stateEnv(t)
	ws := t.TempDir()
	srv.Enqueue(
		todoReply(todoCall("Greet the user", "1:completed:Say hello", "2:pending:Say goodbye")),
		providertest.Reply{Text: "Hello from the first run."},
	)
	mustRun(t, env, "-p", "greet me please", "--base-url", srv.URL, "-C", ws)
	first := listSessions(t, state, ws)
	if len(first) != 1 {
		t.Fatalf("%d sessions, want 1", len(first))
	}

	p := startTmux(t, []string{
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + env["HOME"],
		"XDG_STATE_HOME=" + state, "OPENAI_BASE_URL=" + srv.URL,
	}, bin, "-c", "-C", ws)
	p.waitFor("greet me please", "Hello from the first run.", "1/2")

	p.send("/sessions", "Enter")
	p.waitFor(first[0].ID + "  ")

	p.send("/new", "Enter")
	scr := p.waitFor("new session")
	if strings.Contains(scr, "Hello from the first run.") {
		t.Errorf("/new left the old transcript on screen:\n%s", scr)
	}
	srv.Enqueue(providertest.Reply{Text: "A fresh start."})
	p.send("second conversation", "Enter")
	p.waitFor("A fresh start.")
	req := lastRequest(t, srv)
	if strings.Contains(dump(req.Messages), "greet me please") {
		t.Errorf("the request after /new holds the old conversation:\n%s", dump(req.Messages))
	}
	all := listSessions(t, state, ws)
	if len(all) != 2 || all[0].FirstPrompt != "second conversation" || all[1].ID != first[0].ID {
		t.Errorf("sessions after /new = %+v; want the new one, then the first", all)
	}
	checkValid(t, srv)
}
