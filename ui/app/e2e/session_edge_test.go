package e2e

import (
	"github.com/tick-agent/tick/ui/app/apptest"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/ui/app"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestSessionFlagErrors checks the failures and edge cases of the session
// flags and of tick sessions.
func TestSessionFlagErrors(t *testing.T) {
	tests := []struct {
		name    string
		args    []string // {ws} and {url} are replaced
		code    int
		stdout  string
		wantErr []string
	}{
		{"-c without an earlier session", []string{"-c", "-p", "x"}, app.ExitError, "", []string{"no earlier session in {ws}; start one with tick"}},
		{"--resume of an unknown id", []string{"--resume", "zzzz", "-p", "x"}, app.ExitError, "", []string{`no session "zzzz" in {ws}`, "tick sessions"}},
		{"--resume with an empty id", []string{"--resume", " ", "-p", "x"}, app.ExitUsage, "", []string{"--resume needs a session id"}},
		{"-c and --resume together", []string{"-c", "--resume", "abc", "-p", "x"}, app.ExitUsage, "", []string{"either --continue or --resume"}},
		{"sessions with -p", []string{"sessions", "-p", "x"}, app.ExitUsage, "", []string{"tick sessions only lists"}},
		{"sessions with an argument", []string{"sessions", "extra"}, app.ExitUsage, "", []string{`unexpected argument "extra"`}},
		{"sessions of a workspace without any", []string{"sessions"}, app.ExitOK, "", []string{"no sessions in {ws} yet"}},
		{"sessions --json without any", []string{"sessions", "--json"}, app.ExitOK, "[]\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.New(t)
			env, _ := apptest.StateEnv(t)
			ws := t.TempDir()
			args := append(append([]string(nil), tc.args...), "-C", ws)
			if tc.args[0] != "sessions" {
				args = append(args, "--base-url", srv.URL)
			}
			r := tick(t, env, "", args...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			if r.stdout != tc.stdout {
				t.Errorf("stdout = %q, want %q", r.stdout, tc.stdout)
			}
			for _, want := range tc.wantErr {
				want = strings.ReplaceAll(want, "{ws}", ws)
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q; stderr:\n%s", want, r.stderr)
				}
			}
			if len(srv.Requests()) != 0 {
				t.Errorf("the server got %d requests, want none", len(srv.Requests()))
			}
		})
	}
}

// TestNoSessionAndUnusableState checks --no-session, and that a sessions
// directory that cannot be created is said once on stderr without failing
// the run.
func TestNoSessionAndUnusableState(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		env   map[string]string
		extra []string
		warn  string // "" when nothing must be said
	}{
		{"--no-session", map[string]string{"XDG_STATE_HOME": "{state}"}, []string{"--no-session"}, ""},
		{"state directory is a file", map[string]string{"XDG_STATE_HOME": file}, nil, "not saving this session"},
		{"no HOME and no XDG_STATE_HOME", map[string]string{}, nil, "neither XDG_STATE_HOME nor HOME is set"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.New(t)
			state := t.TempDir()
			env := map[string]string{}
			for k, v := range tc.env {
				env[k] = strings.ReplaceAll(v, "{state}", state)
			}
			srv.Enqueue(
				call("bash", map[string]any{"command": "echo ran"}),
				providertest.Reply{Text: "done"},
			)
			r := mustRun(t, env, append([]string{"-p", "go", "--yolo", "--base-url", srv.URL, "-C", t.TempDir()}, tc.extra...)...)
			if r.stdout != "done\n" {
				t.Errorf("stdout = %q, want the answer", r.stdout)
			}
			switch n := strings.Count(r.stderr, "tick: not saving this session"); {
			case tc.warn == "" && n != 0:
				t.Errorf("unexpected warning:\n%s", r.stderr)
			case tc.warn != "" && (n != 1 || !strings.Contains(r.stderr, tc.warn)):
				t.Errorf("want one warning with %q, got %d; stderr:\n%s", tc.warn, n, r.stderr)
			}
			if strings.Contains(r.stderr, "could not save") {
				t.Errorf("the run kept failing to save:\n%s", r.stderr)
			}
			if entries, _ := os.ReadDir(state); len(entries) != 0 {
				t.Errorf("the state directory got %d entries, want none", len(entries))
			}
			checkValid(t, srv)
		})
	}
}

// TestNoEmptySessions checks that runs that never send a prompt leave no
// session behind, so that tick -c still finds the last real one.
func TestNoEmptySessions(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
	}{
		{"the full-screen app without a terminal", nil, "", app.ExitUsage},
		{"-p - with an empty stdin", []string{"-p", "-"}, "", app.ExitUsage},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.New(t)
			env, state := apptest.StateEnv(t)
			ws := t.TempDir()
			r := tick(t, env, tc.stdin, append(tc.args, "--base-url", srv.URL, "-C", ws)...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			if all := apptest.ListSessions(t, state, ws); len(all) != 0 {
				t.Errorf("%d sessions saved, want none", len(all))
			}
			if entries, _ := os.ReadDir(apptest.SessionsIn(state)); len(entries) != 0 {
				t.Errorf("the sessions directory has %d entries, want none", len(entries))
			}
		})
	}
}

// TestResumeWithoutSaving checks -c --no-session: the conversation comes
// back, and the file is left as it was.
func TestResumeWithoutSaving(t *testing.T) {
	srv := providertest.New(t)
	env, state := apptest.StateEnv(t)
	ws := t.TempDir()
	base := []string{"--base-url", srv.URL, "-C", ws}
	srv.Enqueue(providertest.Reply{Text: "first answer"})
	mustRun(t, env, append([]string{"-p", "first"}, base...)...)
	all := apptest.ListSessions(t, state, ws)
	if len(all) != 1 {
		t.Fatalf("%d sessions, want 1", len(all))
	}
	before, err := os.ReadFile(all[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(providertest.Reply{Text: "second answer"})
	mustRun(t, env, append([]string{"-c", "--no-session", "-p", "second"}, base...)...)
	if got := dump(apptest.LastRequest(t, srv).Messages); !strings.Contains(got, "first answer") {
		t.Errorf("the request after -c --no-session lacks the earlier conversation:\n%s", got)
	}
	after, err := os.ReadFile(all[0].Path)
	if err != nil || string(after) != string(before) {
		t.Errorf("the session file changed with --no-session (%v):\n%s", err, after)
	}
	if n := len(apptest.ListSessions(t, state, ws)); n != 1 {
		t.Errorf("%d sessions after -c --no-session, want still 1", n)
	}
}

// TestSessionFileCannotBeCreated checks that when the session file cannot
// be created (here the workspace's folder is a file), the run goes on and
// says so once.
func TestSessionFileCannotBeCreated(t *testing.T) {
	srv := providertest.New(t)
	env, state := apptest.StateEnv(t)
	ws := t.TempDir()
	base := []string{"--base-url", srv.URL, "-C", ws, "--yolo"}
	srv.Enqueue(providertest.Reply{Text: "saved"})
	mustRun(t, env, append([]string{"-p", "first"}, base...)...)
	all := apptest.ListSessions(t, state, ws)
	if len(all) != 1 {
		t.Fatalf("%d sessions, want 1", len(all))
	}
	folder := filepath.Dir(all[0].Path)
	if err := os.RemoveAll(folder); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(folder, []byte("in the way"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(
		todoReply(todoCall("", "1:in_progress:Work")),
		call("bash", map[string]any{"command": "echo hi"}),
		providertest.Reply{Text: "not saved"},
	)
	r := mustRun(t, env, append([]string{"-p", "second"}, base...)...)
	if r.stdout != "not saved\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	if n := strings.Count(r.stderr, "not saving this session"); n != 1 || !strings.Contains(r.stderr, "a file is in the way") {
		t.Errorf("want the failure said once with its reason, got it %d times; stderr:\n%s", n, r.stderr)
	}
	checkValid(t, srv)
}
