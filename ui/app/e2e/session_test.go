package e2e

import (
	"github.com/tick-agent/tick/ui/app/apptest"

	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// mustRun runs tick and fails the test unless it exits 0, or 4 (open
// todo items: these tests leave plans open on purpose, to resume).
func mustRun(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	r := tick(t, env, "", args...)
	if r.code != app.ExitOK && r.code != app.ExitUnfinished {
		t.Fatalf("tick %q: exit %d, want 0; stderr:\n%s", args, r.code, r.stderr)
	}
	return r
}

// wireMsg is a message as the server received it, comparable with ==
// after flattening the tool calls.
type wireMsg struct {
	Role, Content, ToolCallID, Calls string
}

func fromRequest(ms []providertest.Message) []wireMsg {
	out := make([]wireMsg, len(ms))
	for i, m := range ms {
		var calls []string
		for _, c := range m.ToolCalls {
			calls = append(calls, c.ID+" "+c.Name+" "+c.Args)
		}
		out[i] = wireMsg{m.Role, m.Content, m.ToolCallID, strings.Join(calls, "\n")}
	}
	return out
}

func fromHistory(ms []provider.Message) []wireMsg {
	out := make([]wireMsg, len(ms))
	for i, m := range ms {
		var calls []string
		for _, c := range m.ToolCalls {
			calls = append(calls, c.ID+" "+c.Name+" "+c.Arguments)
		}
		out[i] = wireMsg{string(m.Role), m.Content, m.ToolCallID, strings.Join(calls, "\n")}
	}
	return out
}

// TestSessionsListAndResume saves two sessions, lists them (text and
// JSON), resumes the older one by an id prefix, and checks where and how
// the files are written.
func TestSessionsListAndResume(t *testing.T) {
	srv := providertest.New(t)
	env, state := apptest.StateEnv(t)
	ws := t.TempDir()
	base := []string{"--base-url", srv.URL, "-C", ws, "--yolo"}

	srv.Enqueue(
		todoReply(todoCall("Three steps", "1:completed:First", "2:in_progress:Second", "3:pending:Third")),
		providertest.Reply{Text: "first answer"},
	)
	mustRun(t, env, append([]string{"-p", "first task\nwith more lines"}, base...)...)
	first := apptest.LastRequest(t, srv)
	time.Sleep(5 * time.Millisecond) // distinct update times, whatever the clock's resolution
	srv.Enqueue(providertest.Reply{Text: "second answer"})
	mustRun(t, env, append([]string{"-p", "second task"}, base...)...)

	all := apptest.ListSessions(t, state, ws)
	if len(all) != 2 || all[0].FirstPrompt != "second task" || all[1].FirstPrompt != "first task" {
		t.Fatalf("sessions = %+v, want the second task's then the first's", all)
	}
	older := all[1]

	t.Run("tick sessions", func(t *testing.T) {
		r := mustRun(t, env, "sessions", "-C", ws)
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if len(lines) != 2 {
			t.Fatalf("tick sessions printed %d lines, want 2:\n%s", len(lines), r.stdout)
		}
		want := [][]string{
			{all[0].ID, all[0].Started.Local().Format("2006-01-02 15:04"), "1 turn", " - ", "second task"},
			{all[1].ID, all[1].Started.Local().Format("2006-01-02 15:04"), "1 turn", "1/3", "first task"},
		}
		for i, parts := range want {
			if !strings.HasPrefix(lines[i], parts[0]+" ") || !strings.HasSuffix(lines[i], parts[len(parts)-1]) {
				t.Errorf("line %d = %q, want it to start with the id %s and end with the prompt %q", i+1, lines[i], parts[0], parts[len(parts)-1])
			}
			for _, p := range parts {
				if !strings.Contains(lines[i], p) {
					t.Errorf("line %d = %q lacks %q", i+1, lines[i], p)
				}
			}
		}
		if strings.Contains(r.stdout, "with more lines") {
			t.Errorf("the listing shows more than the first line of the prompt:\n%s", r.stdout)
		}
	})

	t.Run("tick sessions --json", func(t *testing.T) {
		r := mustRun(t, env, "sessions", "--json", "-C", ws)
		var got []app.SessionJSON
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatalf("stdout is not a JSON array of sessions: %v\n%s", err, r.stdout)
		}
		if len(got) != 2 || got[0].ID != all[0].ID || got[1].ID != older.ID || got[1].Done != 1 || got[1].Total != 3 || got[1].Turns != 1 {
			t.Errorf("sessions --json = %+v", got)
		}
	})

	t.Run("resume by id prefix", func(t *testing.T) {
		srv.Enqueue(providertest.Reply{Text: "resumed answer"})
		r := mustRun(t, env, append([]string{"-p", "third task", "--resume", strings.ToUpper(older.ID[:5])}, base...)...)
		if r.stdout != "resumed answer\n" {
			t.Errorf("stdout = %q", r.stdout)
		}
		if !strings.Contains(r.stderr, "resumed session "+older.ID) || !strings.Contains(r.stderr, "[>] #2: Second") {
			t.Errorf("stderr does not name the resumed session and its todo list:\n%s", r.stderr)
		}
		req := apptest.LastRequest(t, srv)
		// The first run's conversation, its answer, then the new prompt.
		want := append(fromRequest(first.Messages), wireMsg{Role: "assistant", Content: "first answer"}, wireMsg{Role: "user", Content: "third task"})
		if got := fromRequest(req.Messages); !equalMsgs(got, want) {
			t.Errorf("request after --resume:\n%v\nwant\n%v", got, want)
		}
		if strings.Contains(dump(req.Messages), "second task") {
			t.Error("the resumed request holds the other session's conversation")
		}
		checkValid(t, srv)
		after := apptest.ListSessions(t, state, ws)
		if len(after) != 2 || after[0].ID != older.ID || after[0].Turns != 2 {
			t.Errorf("after resuming, sessions = %+v; want the same two, the resumed one first with 2 turns", after)
		}
	})

	t.Run("permissions", func(t *testing.T) {
		dirs := []string{filepath.Join(state, "tick"), apptest.SessionsIn(state), filepath.Dir(older.Path)}
		for _, d := range dirs {
			if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("%s: %v, mode %v; want 0700", d, err, modeOf(fi))
			}
		}
		for _, in := range all {
			if fi, err := os.Stat(in.Path); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: %v, mode %v; want 0600", in.Path, err, modeOf(fi))
			}
		}
	})

	t.Run("nothing outside the state directory", func(t *testing.T) {
		if entries, _ := os.ReadDir(env["HOME"]); len(entries) != 0 {
			t.Errorf("the fake HOME got %d entries though XDG_STATE_HOME is set", len(entries))
		}
		// The real home and state directories are read here only to check
		// that tick never wrote this workspace's sessions there.
		for _, dir := range realSessionDirs() {
			if got, _ := session.List(dir, ws); len(got) != 0 {
				t.Errorf("sessions of the test workspace leaked into %s", dir)
			}
		}
	})
}

// realSessionDirs returns the sessions directories of the real environment.
func realSessionDirs() []string {
	var dirs []string
	if d, err := session.DefaultDir(os.Getenv); err == nil {
		dirs = append(dirs, d)
	}
	if h := os.Getenv("HOME"); h != "" {
		dirs = append(dirs, filepath.Join(h, ".local", "state", "tick", "sessions"))
	}
	return dirs
}

func modeOf(fi os.FileInfo) os.FileMode {
	if fi == nil {
		return 0
	}
	return fi.Mode().Perm()
}

func equalMsgs(a, b []wireMsg) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// dump is the messages as one string, for substring checks.
func dump(ms []providertest.Message) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(m.Role + ": " + m.Content + "\n")
		for _, c := range m.ToolCalls {
			b.WriteString("  call " + c.Name + " " + c.Args + "\n")
		}
	}
	return b.String()
}

// TestSessionHomeFallback checks that without XDG_STATE_HOME the sessions
// go under $HOME/.local/state, the HOME the env function gives.
func TestSessionHomeFallback(t *testing.T) {
	srv := providertest.New(t)
	home, ws := t.TempDir(), t.TempDir()
	env := map[string]string{"HOME": home}
	srv.Enqueue(providertest.Reply{Text: "hi"})
	mustRun(t, env, "-p", "hello", "--base-url", srv.URL, "-C", ws)
	all, err := session.List(filepath.Join(home, ".local", "state", "tick", "sessions"), ws)
	if err != nil || len(all) != 1 || all[0].FirstPrompt != "hello" {
		t.Fatalf("sessions under the fake HOME = %+v, %v; want the one run", all, err)
	}
	r := mustRun(t, env, "sessions", "-C", ws)
	if !strings.HasPrefix(r.stdout, all[0].ID+" ") {
		t.Errorf("tick sessions = %q, want the session %s", r.stdout, all[0].ID)
	}
}

// TestContinueHeadless runs a task, carries on with tick -c -p, compacts
// the resumed conversation with a small window, and carries on again: each
// resumed request holds the earlier conversation, the restored todo list
// survives the compaction, and the compaction itself is resumed.
func TestContinueHeadless(t *testing.T) {
	srv := providertest.New(t)
	env, state := apptest.StateEnv(t)
	ws := t.TempDir()
	base := []string{"--base-url", srv.URL, "-C", ws, "--yolo"}
	plan := todoCall("Fill the context", "1:in_progress:Produce output", "2:pending:Report")
	bigOut := strings.Repeat("Q", 10000)

	srv.Enqueue(
		todoReply(plan),
		call("bash", map[string]any{"command": "head -c 10000 /dev/zero | tr '\\0' Q"}),
		providertest.Reply{Text: "step one done"},
	)
	mustRun(t, env, append([]string{"-p", "fill the context"}, base...)...)
	firstReq := apptest.LastRequest(t, srv)
	if !strings.Contains(dump(firstReq.Messages), bigOut) {
		t.Fatal("the first run's command output did not reach the model")
	}

	// tick -c -p: the earlier conversation and the todo list come back.
	srv.Enqueue(providertest.Reply{Text: "carried on"})
	r := mustRun(t, env, append([]string{"-c", "-p", "carry on"}, base...)...)
	if r.stdout != "carried on\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	for _, want := range []string{"resumed session", "todo 0/2", "Goal: Fill the context\n[>] #1: Produce output\n[ ] #2: Report"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	want := append(fromRequest(firstReq.Messages), wireMsg{Role: "assistant", Content: "step one done"}, wireMsg{Role: "user", Content: "carry on"})
	if got := fromRequest(apptest.LastRequest(t, srv).Messages); !equalMsgs(got, want) {
		t.Fatalf("request after -c:\n%v\nwant\n%v", got, want)
	}

	// A small window compacts the resumed conversation before the first
	// request; the plan is re-inserted from the restored todo list.
	const summary = "SUMMARY: printed 10000 Qs for the user."
	srv.SetFunc(func(req providertest.Request) providertest.Reply {
		if len(req.Tools) == 0 { // the summary request offers no tools
			return providertest.Reply{Text: summary}
		}
		return providertest.Reply{Text: "answer after " + req.LastUser()}
	})
	r = mustRun(t, env, append([]string{"-c", "-p", "compact now", "--context-window", "3000"}, base...)...)
	if !strings.Contains(r.stderr, "context compacted") {
		t.Errorf("stderr does not report the compaction:\n%s", r.stderr)
	}
	checkCompacted := func(t *testing.T, req providertest.Request) {
		t.Helper()
		all := dump(req.Messages)
		if !strings.Contains(all, summary) {
			t.Error("the request lacks the summary")
		}
		if !strings.Contains(all, "Goal: Fill the context\n[>] #1: Produce output\n[ ] #2: Report") {
			t.Errorf("the request lacks the restored todo list:\n%s", all)
		}
		if strings.Contains(all, bigOut) {
			t.Error("the request still holds the old large output")
		}
	}
	checkCompacted(t, apptest.LastRequest(t, srv))

	// The compaction was saved: the next -c starts from it, while the file
	// keeps the full history.
	r = mustRun(t, env, append([]string{"-c", "-p", "and now?"}, base...)...)
	if r.stdout != "answer after and now?\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	req := apptest.LastRequest(t, srv)
	checkCompacted(t, req)
	if req.LastUser() != "and now?" || !strings.Contains(dump(req.Messages), "compact now") {
		t.Errorf("the request after the compaction lost the kept turns:\n%s", dump(req.Messages))
	}
	all := apptest.ListSessions(t, state, ws)
	if len(all) != 1 {
		t.Fatalf("%d sessions, want the one continued throughout", len(all))
	}
	ld, err := session.Load(all[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	if ld.Compactions != 1 || !strings.Contains(fmtHistory(ld.History), bigOut) {
		t.Errorf("the file has %d compactions and the full history: %v; want 1 and true", ld.Compactions, strings.Contains(fmtHistory(ld.History), bigOut))
	}
	checkValid(t, srv)
}

func fmtHistory(ms []provider.Message) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(string(m.Role) + ": " + m.Content + "\n")
	}
	return b.String()
}

// TestDamagedSessionFile resumes files damaged the ways a crash or a bad
// disk leaves them.
func TestDamagedSessionFile(t *testing.T) {
	tests := []struct {
		name    string
		damage  func(lines []string) []string
		wantErr []string
		// kept is how many of the first run's messages the resumed request
		// must hold (-1: all of them).
		kept int
	}{
		{
			name: "corrupt middle line",
			damage: func(lines []string) []string {
				// lines: header, user, assistant (tool call), todo, tool, assistant
				lines[4] = `{"type":"message","message":{"role":"tool",` // line 5 cut short
				return lines
			},
			wantErr: []string{"corrupt at line 5", "continuing in the new session"},
			kept:    2, // the prompt and the call; the call is answered as interrupted
		},
		{
			name: "truncated last line",
			damage: func(lines []string) []string {
				return append(lines, `{"type":"message","time":"2025-01-01T00:00:00Z","message":{"role":"user","con`)
			},
			wantErr: []string{"ignored a truncated last line"},
			kept:    -1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.New(t)
			env, state := apptest.StateEnv(t)
			ws := t.TempDir()
			base := []string{"--base-url", srv.URL, "-C", ws, "--yolo"}
			srv.Enqueue(
				todoReply(todoCall("", "1:in_progress:Look")),
				providertest.Reply{Text: "looked"},
			)
			mustRun(t, env, append([]string{"-p", "look around"}, base...)...)
			firstReq := apptest.LastRequest(t, srv)
			all := apptest.ListSessions(t, state, ws)
			if len(all) != 1 {
				t.Fatalf("%d sessions, want 1", len(all))
			}
			data, err := os.ReadFile(all[0].Path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			if len(lines) != 6 {
				t.Fatalf("the session file has %d lines, want 6:\n%s", len(lines), data)
			}
			damaged := strings.Join(tc.damage(lines), "\n") + "\n"
			if err := os.WriteFile(all[0].Path, []byte(damaged), 0o600); err != nil {
				t.Fatal(err)
			}

			srv.Enqueue(providertest.Reply{Text: "resumed"})
			r := mustRun(t, env, append([]string{"-c", "-p", "continue"}, base...)...)
			for _, want := range tc.wantErr {
				if n := strings.Count(r.stderr, want); n != 1 {
					t.Errorf("stderr says %q %d times, want once:\n%s", want, n, r.stderr)
				}
			}
			got := fromRequest(apptest.LastRequest(t, srv).Messages)
			prior := append(fromRequest(firstReq.Messages), wireMsg{Role: "assistant", Content: "looked"})
			if tc.kept >= 0 {
				prior = prior[:1+tc.kept] // the system prompt and the kept messages
				prior = append(prior, wireMsg{Role: "tool", ToolCallID: prior[len(prior)-1].Calls[:strings.IndexByte(prior[len(prior)-1].Calls, ' ')], Content: session.Interrupted})
			}
			want := append(prior, wireMsg{Role: "user", Content: "continue"})
			if !equalMsgs(got, want) {
				t.Errorf("request after resuming the damaged file:\n%v\nwant\n%v", got, want)
			}
			checkValid(t, srv)
		})
	}
}
