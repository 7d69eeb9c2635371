package e2e

import (
	"github.com/tick-agent/tick/ui/app/apptest"

	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/ui/app"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestSessionLock runs a tick that holds its session open (its model call
// hangs), then resumes that session from a second tick: it exits at once
// with a message naming the first one's pid. After the first is killed,
// its lock is gone and the session resumes.
func TestSessionLock(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "thinking", Hang: true})
	env, state := apptest.StateEnv(t)
	ws := t.TempDir()
	env["OPENAI_BASE_URL"] = srv.URL

	holder := exec.Command(bin, "-p", "hold it", "-C", ws)
	holder.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range env {
		holder.Env = append(holder.Env, k+"="+v)
	}
	var errb bytes.Buffer
	holder.Stderr = &errb
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- holder.Wait() }()
	t.Cleanup(func() { _ = holder.Process.Kill() })
	if !waitFor(20*time.Second, func() bool { return len(srv.Requests()) > 0 }) {
		t.Fatalf("the first tick never called the model; stderr:\n%s", errb.String())
	}
	if n := len(apptest.ListSessions(t, state, ws)); n != 1 {
		t.Fatalf("%d sessions, want the first tick's one", n)
	}

	for _, args := range [][]string{{"-c"}, {"--resume", apptest.ListSessions(t, state, ws)[0].ID}} {
		start := time.Now()
		r := tick(t, env, "", append(args, "-p", "me too", "-C", ws)...)
		took := time.Since(start)
		want := fmt.Sprintf("is open in another tick (pid %d)", holder.Process.Pid)
		if r.code == app.ExitOK || !strings.Contains(r.stderr, want) {
			t.Errorf("tick %v: exit %d, stderr %q; want a failure saying %q", args, r.code, r.stderr, want)
		}
		if took > 5*time.Second {
			t.Errorf("tick %v took %v to refuse", args, took)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the refused ticks called the model: %d requests", n)
	}

	_ = holder.Process.Kill()
	<-exited
	srv.Enqueue(providertest.Reply{Text: "carried on"})
	r := mustRun(t, env, "-c", "-p", "after the kill", "-C", ws)
	if !strings.Contains(r.stdout, "carried on") {
		t.Errorf("resume after the kill printed %q", r.stdout)
	}
	if n := len(apptest.ListSessions(t, state, ws)); n != 1 {
		t.Errorf("%d sessions after resuming, want 1", n)
	}
}

// TestTUIForkOpenSession: the /sessions picker of the full-screen app, on
// a session another tick holds, names that process and forks the session
// into a new one with f; the fork continues the conversation.
func TestTUIForkOpenSession(t *testing.T) {
	needTmux(t)
	bin := sharedTick(t)
	srv := providertest.New(t)
	env, state := apptest.StateEnv(t)
	ws := t.TempDir()
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		switch r.LastUser() {
		case "hold it":
			return providertest.Reply{Text: "holding", Hang: true}
		case "greet me":
			return providertest.Reply{Text: "Hello from the first run."}
		}
		return providertest.Reply{Text: "Forked and carrying on."}
	})
	mustRun(t, env, "-p", "greet me", "--base-url", srv.URL, "-C", ws)
	first := apptest.ListSessions(t, state, ws)[0]

	holder := exec.Command(bin, "-c", "-p", "hold it", "-C", ws)
	holder.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + env["HOME"], "XDG_STATE_HOME=" + state, "OPENAI_BASE_URL=" + srv.URL}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = holder.Process.Kill(); _ = holder.Wait() })
	if !waitFor(20*time.Second, func() bool { return len(srv.Requests()) > 1 }) {
		t.Fatal("the holding tick never called the model")
	}

	p := startTmux(t, []string{
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + env["HOME"],
		"XDG_STATE_HOME=" + state, "OPENAI_BASE_URL=" + srv.URL,
	}, bin, "-C", ws)
	p.waitFor(placeholder)
	p.send("/sessions", "Enter")
	p.waitFor("Sessions · this workspace", first.ID, "greet me")
	p.send("Enter")
	p.waitFor(fmt.Sprintf("open in another tick (pid %d)", holder.Process.Pid), "f fork it into a new session")
	p.send("f")
	p.waitFor("forked session "+first.ID+" into the new session", "Hello from the first run.")
	p.send("go on", "Enter")
	p.waitFor("Forked and carrying on.")
	sent := dump(apptest.LastRequest(t, srv).Messages)
	if !strings.Contains(sent, "greet me") || !strings.Contains(sent, "go on") {
		t.Errorf("the fork's request does not continue the conversation:\n%s", sent)
	}
	if n := len(apptest.ListSessions(t, state, ws)); n != 2 {
		t.Errorf("%d sessions, want the original and the fork", n)
	}
}
