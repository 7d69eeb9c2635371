package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/ui/app"

	"github.com/tick-agent/tick/provider/providertest"
)

// tick runs tick in process with args, stdin and a fixed environment (no
// variable of the real one leaks in).
type result struct {
	code           int
	stdout, stderr string
}

func tick(t *testing.T, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := app.Main(quietReminder(args), strings.NewReader(stdin), &out, &errb, func(k string) string { return env[k] })
	return result{code, out.String(), errb.String()}
}

// quietReminder turns the completion reminder off for the tests whose
// scripted models end their turns with items open on purpose (a plan cut
// short, to resume), unless args say otherwise: the reminder has tests of
// its own (plan_e2e_test.go, agent/plan_test.go).
func quietReminder(args []string) []string {
	for _, a := range args {
		if strings.HasPrefix(a, "--completion-reminder") {
			return args
		}
	}
	switch {
	case len(args) > 0 && strings.Contains(args[0], "/"): // the binary's path
		return append([]string{args[0]}, quietReminder(args[1:])...)
	case len(args) > 0 && !strings.HasPrefix(args[0], "-"): // a subcommand runs no turn
		return args
	}
	return append([]string{"--completion-reminder=false"}, args...)
}

// headless returns the args of a -p run against srv in a fresh workspace,
// and that workspace.
func headless(t *testing.T, srv *providertest.Server, prompt string, extra ...string) ([]string, string) {
	ws := t.TempDir()
	return append([]string{"-p", prompt, "--base-url", srv.URL, "-C", ws}, extra...), ws
}

// todoCall is a todo tool call over items given as "id:status:text".
func todoCall(goal string, items ...string) providertest.Call {
	type item struct {
		ID     string `json:"id"`
		Text   string `json:"text"`
		Status string `json:"status"`
	}
	var its []item
	for _, s := range items {
		p := strings.SplitN(s, ":", 3)
		its = append(its, item{p[0], p[2], p[1]})
	}
	b, _ := json.Marshal(map[string]any{"goal": goal, "items": its})
	return providertest.Call{Name: "todo", Args: string(b)}
}

func call(name string, args map[string]any) providertest.Reply {
	b, _ := json.Marshal(args)
	return providertest.Reply{ToolCalls: []providertest.Call{{Name: name, Args: string(b)}}}
}

func todoReply(c providertest.Call) providertest.Reply {
	return providertest.Reply{ToolCalls: []providertest.Call{c}}
}

// checkValid fails when the fake server saw an invalid request.
func checkValid(t *testing.T, srv *providertest.Server) {
	t.Helper()
	if errs := srv.Errors(); len(errs) > 0 {
		t.Errorf("the server rejected requests: %v", errs)
	}
}

// toolResult returns the content of the tool message answering the last
// call of the request before it.
func toolResults(reqs []providertest.Request) []string {
	if len(reqs) == 0 {
		return nil
	}
	var out []string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}

// TestPlanWriteRunComplete is the main scenario: the model plans, writes a
// file, runs a command, completes the plan and answers.
func TestPlanWriteRunComplete(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		todoReply(todoCall("Greet in a file", "1:in_progress:Write hello.txt", "2:pending:Print it")),
		call("write_file", map[string]any{"path": "hello.txt", "content": "hi from tick\n"}),
		todoReply(todoCall("Greet in a file", "1:completed:Write hello.txt", "2:in_progress:Print it")),
		call("bash", map[string]any{"command": "cat hello.txt"}),
		todoReply(todoCall("Greet in a file", "1:completed:Write hello.txt", "2:completed:Print it")),
		providertest.Reply{Text: "I wrote hello.txt and printed it."},
	)
	args, ws := headless(t, srv, "write a greeting to hello.txt and show it", "--yolo")
	r := tick(t, nil, "", args...)
	if r.code != app.ExitOK {
		t.Fatalf("exit %d, want 0; stderr:\n%s", r.code, r.stderr)
	}
	if r.stdout != "I wrote hello.txt and printed it.\n" {
		t.Errorf("stdout = %q, want only the final answer", r.stdout)
	}
	for _, want := range []string{
		"Goal: Greet in a file\n[>] #1: Write hello.txt\n[ ] #2: Print it\n\n(0/2 completed)\n",
		"→ write_file  hello.txt\n  ✓ ",
		"[x] #1: Write hello.txt\n[>] #2: Print it\n\n(1/2 completed)\n",
		"→ bash  cat hello.txt\n  ✓ ",
		"(2/2 completed)\n",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q; stderr:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "→ todo") {
		t.Errorf("accepted todo calls should show as the list only; stderr:\n%s", r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(ws, "hello.txt"))
	if err != nil || string(b) != "hi from tick\n" {
		t.Errorf("hello.txt = %q, %v; want the written greeting", b, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 6 {
		t.Fatalf("server got %d requests, want 6", len(reqs))
	}
	if got := toolResults(reqs[:5]); len(got) < 4 || !strings.Contains(got[3], "hi from tick") {
		t.Errorf("the model did not see the command's output; tool results: %q", got)
	}
	if reqs[0].Model != provider.DefaultModel {
		t.Errorf("model = %q, want the default %q", reqs[0].Model, provider.DefaultModel)
	}
	checkValid(t, srv)
}

// TestJSONLines checks that --json writes only JSON lines on stdout, one
// per event, ending with turn_end.
func TestJSONLines(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		todoReply(todoCall("", "1:in_progress:Look")),
		call("bash", map[string]any{"command": "echo hi"}),
		providertest.Reply{Text: "Done."},
	)
	args, _ := headless(t, srv, "look around", "--json", "--yolo", "--model", "test-model")
	r := tick(t, nil, "", args...)
	if r.code != app.ExitUnfinished { // the list is left open

		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	var types []string
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		typ, _ := m["type"].(string)
		types = append(types, typ)
		if typ == "turn_end" && m["reason"] != "done" {
			t.Errorf("turn_end reason = %v, want done", m["reason"])
		}
	}
	if n := len(types); n < 3 || types[0] != "start" || types[n-2] != "turn_end" || types[n-1] != "result" {
		t.Fatalf("event types %v do not start with start and end with turn_end, result", types)
	}
	for _, want := range []string{"todo", "tool_start", "tool_end", "text", "assistant_done", "usage"} {
		if !strings.Contains(" "+strings.Join(types, " ")+" ", " "+want+" ") {
			t.Errorf("no %q event among %v", want, types)
		}
	}
	if reqs := srv.Requests(); len(reqs) == 0 || reqs[0].Model != "test-model" {
		t.Errorf("--model was not sent to the server")
	}
	checkValid(t, srv)
}

// TestHeadlessWithoutYolo checks -p without --yolo: sandboxed commands
// and file changes inside the workspace run; a command the sandbox cannot
// contain (here: --sandbox danger-full-access) is refused, the model is
// told to ask for --yolo, and the turn goes on.
func TestHeadlessWithoutYolo(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		call("bash", map[string]any{"command": "touch made-by-bash"}),
		call("write_file", map[string]any{"path": "made-by-write", "content": "x"}),
		providertest.Reply{Text: "Both ran."},
	)
	args, ws := headless(t, srv, "make two files")
	if r := tick(t, nil, "", args...); r.code != app.ExitOK || r.stdout != "Both ran.\n" {
		t.Fatalf("exit %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, f := range []string{"made-by-bash", "made-by-write"} {
		if _, err := os.Stat(filepath.Join(ws, f)); err != nil {
			t.Errorf("%s was not made in the sandbox without --yolo: %v", f, err)
		}
	}

	srv = providertest.New(t)
	srv.Enqueue(
		call("bash", map[string]any{"command": "touch made-by-bash"}),
		providertest.Reply{Text: "I was not allowed to run commands."},
	)
	args, ws = headless(t, srv, "make a file", "--sandbox", "danger-full-access")
	r := tick(t, nil, "", args...)
	if r.code != app.ExitRefused || r.stdout != "I was not allowed to run commands.\n" {
		t.Fatalf("exit %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "made-by-bash")); err == nil {
		t.Errorf("an unsandboxed command ran without --yolo")
	}
	if !strings.Contains(r.stderr, "→ bash  touch made-by-bash\n  ✗") {
		t.Errorf("stderr does not show the refused call; stderr:\n%s", r.stderr)
	}
	if res := toolResults(srv.Requests()); len(res) == 0 || !strings.HasPrefix(res[0], "Error:") || !strings.Contains(res[0], "--yolo") {
		t.Errorf("the model was not told to ask for --yolo: %q", res)
	}
	checkValid(t, srv)
}

// TestPromptFromStdin checks -p -.
func TestPromptFromStdin(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "hello"})
	args, _ := headless(t, srv, "-")
	r := tick(t, nil, "say hello\nplease\n", args...)
	if r.code != app.ExitOK || r.stdout != "hello\n" {
		t.Fatalf("exit %d, stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if got := srv.Requests()[0].LastUser(); got != "say hello\nplease\n" {
		t.Errorf("prompt sent = %q, want the text from stdin", got)
	}
}

// TestErrors checks the exit codes and messages of failures.
func TestErrors(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		reply   *providertest.Reply
		args    func(url, ws string) []string
		stdin   string
		code    int
		wantErr []string
	}{
		{
			name:    "401 fails fast with a clear message",
			env:     map[string]string{"OPENAI_API_KEY": "sk-wrong"},
			reply:   &providertest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`},
			args:    func(url, ws string) []string { return []string{"-p", "hi", "--base-url", url, "-C", ws} },
			code:    app.ExitAuth,
			wantErr: []string{"401 Unauthorized", "Incorrect API key provided", "check OPENAI_API_KEY"},
		},
		{
			name:    "base URL from the environment",
			env:     map[string]string{"OPENAI_BASE_URL": "{url}"},
			reply:   &providertest.Reply{Status: 404, Body: `{"error":{"message":"model 'nope' not found"}}`},
			args:    func(url, ws string) []string { return []string{"-p", "hi", "-C", ws, "--model", "nope"} },
			code:    app.ExitError,
			wantErr: []string{"404", "model 'nope' not found"},
		},
		{
			name:    "no key and no base URL",
			args:    func(url, ws string) []string { return []string{"-p", "hi", "-C", ws} },
			code:    app.ExitUsage,
			wantErr: []string{"OPENAI_API_KEY", "OPENAI_BASE_URL"},
		},
		{
			name:    "unknown flag",
			args:    func(url, ws string) []string { return []string{"--frobnicate"} },
			code:    app.ExitUsage,
			wantErr: []string{"flag provided but not defined: -frobnicate", "tick --help"},
		},
		{
			name:    "-p without a prompt",
			args:    func(url, ws string) []string { return []string{"-p"} },
			code:    app.ExitUsage,
			wantErr: []string{"flag needs an argument: -p"},
		},
		{
			name:    "-p with an empty prompt",
			args:    func(url, ws string) []string { return []string{"-p", "  "} },
			code:    app.ExitUsage,
			wantErr: []string{"-p needs a prompt"},
		},
		{
			name:    "-p - with empty stdin",
			args:    func(url, ws string) []string { return []string{"-p", "-", "--base-url", url, "-C", ws} },
			code:    app.ExitUsage,
			wantErr: []string{"empty prompt from stdin"},
		},
		{
			name:    "--json without -p",
			args:    func(url, ws string) []string { return []string{"--json"} },
			code:    app.ExitUsage,
			wantErr: []string{"--json works only with -p"},
		},
		{
			name:    "a stray argument after -p",
			args:    func(url, ws string) []string { return []string{"-p", "x", "fix the bug"} },
			code:    app.ExitUsage,
			wantErr: []string{`unexpected argument "fix the bug"`, "-p takes the prompt"},
		},
		{
			name:    "a prompt for the TUI needs a terminal",
			args:    func(url, ws string) []string { return []string{"--base-url", url, "-C", ws, "fix the bug"} },
			code:    app.ExitUsage,
			wantErr: []string{"needs a terminal"},
		},
		{
			name:    "missing workspace",
			args:    func(url, ws string) []string { return []string{"-p", "x", "-C", filepath.Join(ws, "nope")} },
			code:    app.ExitUsage,
			wantErr: []string{"workspace", "nope"},
		},
		{
			name:    "negative context window",
			args:    func(url, ws string) []string { return []string{"-p", "x", "--context-window", "-5"} },
			code:    app.ExitUsage,
			wantErr: []string{"--context-window must be a positive number"},
		},
		{
			name:    "bad base URL",
			args:    func(url, ws string) []string { return []string{"-p", "x", "--base-url", "localhost:1234", "-C", ws} },
			code:    app.ExitUsage,
			wantErr: []string{"must start with http://"},
		},
		{
			name:    "the TUI needs a terminal",
			args:    func(url, ws string) []string { return []string{"--base-url", url, "-C", ws} },
			code:    app.ExitUsage,
			wantErr: []string{"needs a terminal", "-p PROMPT"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.New(t)
			if tc.reply != nil {
				srv.Enqueue(*tc.reply)
			}
			env := map[string]string{}
			for k, v := range tc.env {
				env[k] = strings.ReplaceAll(v, "{url}", srv.URL)
			}
			r := tick(t, env, tc.stdin, tc.args(srv.URL, t.TempDir())...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q; stderr:\n%s", want, r.stderr)
				}
			}
			if r.stdout != "" {
				t.Errorf("stdout = %q, want nothing", r.stdout)
			}
			if tc.reply != nil && len(srv.Requests()) != 1 {
				t.Errorf("server got %d requests, want 1 (no retry)", len(srv.Requests()))
			}
		})
	}
}

// TestHelpAndVersion checks the informational flags.
func TestHelpAndVersion(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--help"}, []string{"Usage:", "-p PROMPT", "--json", "--yolo", "OPENAI_API_KEY", "OPENAI_BASE_URL", "TICK_MODEL", "Exit status", "Examples:", `tick [flags] "PROMPT"`, "ctrl+r retries", "tab completes /commands", "ctrl+d on an empty input quits", "after a pause"}},
		{[]string{"-h"}, []string{"Usage:"}},
		{[]string{"--version"}, []string{"tick " + app.Version}},
		{[]string{"-p", "x", "--version"}, []string{"tick " + app.Version}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := tick(t, nil, "", tc.args...)
			if r.code != app.ExitOK || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", r.code, r.stderr)
			}
			for _, want := range tc.want {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
				}
			}
		})
	}
}
