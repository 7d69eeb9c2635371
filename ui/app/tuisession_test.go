package app

import (
	"github.com/tick-agent/tick/ui/app/apptest"

	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestTUISessionPickerFuncs calls what the app's /sessions picker calls:
// the listing marks the session in use, resuming another gives the app its
// transcript and todo list and an agent that continues that session's
// file, and without saving both say so.
func TestTUISessionPickerFuncs(t *testing.T) {
	srv := providertest.New(t)
	env, state := apptest.StateEnv(t)
	ws := t.TempDir()
	srv.Enqueue(
		providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: `{"goal":"Greet the user","items":[{"id":"1","text":"Say hello","status":"completed"},{"id":"2","text":"Say goodbye","status":"pending"}]}`}}},
		providertest.Reply{Text: "Hello from the first run."},
	)
	mustMain(t, env, "-p", "greet me please", "--base-url", srv.URL, "-C", ws)
	first := apptest.ListSessions(t, state, ws)[0]

	cfg, err := parseConfig([]string{"--completion-reminder=false", "--base-url", srv.URL, "-C", ws}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	client, err := provider.New(provider.Config{BaseURL: srv.URL, Model: cfg.Settings.Model, APIKey: "test"})
	if err != nil {
		t.Fatal(err)
	}
	rec := session.NewRecorder(apptest.SessionsIn(state), cfg.Workspace, cfg.Settings.Model)
	ag, err := newAgent(cfg, client, rec)
	if err != nil {
		t.Fatal(err)
	}
	ts := newTUISession(cfg, client, ag, rec)
	defer ts.Close()
	srv.Enqueue(providertest.Reply{Text: "A fresh start."})
	for range ag.Run(context.Background(), "second conversation") {
	}

	list, err := ts.Sessions()
	if err != nil || len(list) != 2 {
		t.Fatalf("sessions() = %+v, %v; want two", list, err)
	}
	if !list[0].Current || list[0].FirstPrompt != "second conversation" || list[1].Current || list[1].ID != first.ID ||
		list[1].Done != 1 || list[1].Total != 2 || list[1].Turns != first.Turns {
		t.Fatalf("sessions() = %+v; want the current one first, then %+v", list, first)
	}

	reset, err := ts.Resume(first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if reset.Agent == nil || dumpHistory(reset.History) == "" || !strings.Contains(dumpHistory(reset.History), "Hello from the first run.") ||
		reset.Todos.Goal != "Greet the user" || !strings.Contains(reset.Notice, "resumed session "+first.ID) {
		t.Fatalf("resume() = %+v", reset)
	}
	if cur, _ := ts.Current(); cur == ag {
		t.Fatal("resume kept the old agent")
	}
	srv.Enqueue(providertest.Reply{Text: "Carrying on."})
	ag2, _ := ts.Current()
	for range ag2.Run(context.Background(), "carry on") {
	}
	sent := dumpRequest(apptest.LastRequest(t, srv))
	if !strings.Contains(sent, "greet me please") || strings.Contains(sent, "second conversation") {
		t.Fatalf("the resumed agent sent:\n%s", sent)
	}
	if again := apptest.ListSessions(t, state, ws); again[0].ID != first.ID || again[0].Turns <= first.Turns {
		t.Fatalf("the resumed session's file was not continued: %+v", again)
	}
	if _, err := ts.Resume("nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("resume(nope) = %v", err)
	}
	if errs := srv.Errors(); len(errs) > 0 {
		t.Errorf("the server rejected requests: %v", errs)
	}

	unsaved := newTUISession(cfg, client, ag, nil)
	if _, err := unsaved.Sessions(); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("sessions() without saving = %v", err)
	}
	if _, err := unsaved.Resume(first.ID); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("resume() without saving = %v", err)
	}
}

// dumpHistory flattens messages for a substring check.
func dumpHistory(evs []agent.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		switch ev := ev.(type) {
		case agent.UserMessage:
			b.WriteString("user: " + ev.Text + "\n")
		case agent.AssistantDone:
			b.WriteString("assistant: " + ev.Text + "\n")
		case agent.ToolEnd:
			b.WriteString("tool: " + ev.Output + "\n")
		}
	}
	return b.String()
}

// mustMain runs tick in process with env (nothing of the real environment)
// and fails the test unless it exits 0.
func mustMain(t *testing.T, env map[string]string, args ...string) {
	t.Helper()
	var out, errb bytes.Buffer
	args = append([]string{"--completion-reminder=false"}, args...)
	if code := Main(args, strings.NewReader(""), &out, &errb, func(k string) string { return env[k] }); code != ExitOK && code != ExitUnfinished {
		t.Fatalf("tick %q: exit %d, want 0 (or 4: a plan left open on purpose); stderr:\n%s", args, code, errb.String())
	}
}
