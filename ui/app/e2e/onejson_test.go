package e2e

import (
	"encoding/json"
	"fmt"
	"github.com/tick-agent/tick/ui/app/apptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestLockedSessionOneObject: -p --output-format json on a session
// another tick holds prints one result object (is_error, the message
// naming the lock), not an empty stdout.
func TestLockedSessionOneObject(t *testing.T) {
	srv := providertest.New(t)
	env, state := apptest.StateEnv(t)
	ws := t.TempDir()
	srv.Enqueue(providertest.Reply{Text: "first"})
	mustRun(t, env, "-p", "first", "--base-url", srv.URL, "-C", ws)
	info := apptest.ListSessions(t, state, ws)[0]
	st, _, err := session.Open(info.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := tick(t, env, "", "--resume", info.ID, "-p", "me too", "--output-format", "json", "--base-url", srv.URL, "-C", ws)
	if r.code == app.ExitOK {
		t.Fatalf("a locked session ran: stderr %q", r.stderr)
	}
	var obj map[string]any
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	if err := dec.Decode(&obj); err != nil || dec.More() {
		t.Fatalf("stdout is not one object (%v): %q", err, r.stdout)
	}
	if obj["is_error"] != true || !strings.Contains(obj["message"].(string), "another tick") || obj["exit_code"] != float64(r.code) {
		t.Errorf("result %v", obj)
	}
}

// TestPlanIsAFieldOfTheObject: with --plan and --output-format json the
// proposed plan is the object's "plan", never printed before it.
func TestPlanIsAFieldOfTheObject(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(todoReply(todoCall("Ship", "1:pending:Build it", "2:pending:Test it")), providertest.Reply{Text: "That is the plan."})
	args, _ := headless(t, srv, "plan it", "--plan", "--output-format", "json")
	r := tick(t, nil, "", args...)
	var obj map[string]any
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	if err := dec.Decode(&obj); err != nil || dec.More() {
		t.Fatalf("exit %d; stdout is not one object (%v): %q\nstderr:\n%s", r.code, err, r.stdout, r.stderr)
	}
	if plan, _ := obj["plan"].(string); !strings.Contains(plan, "Build it") || !strings.Contains(plan, "Test it") {
		t.Errorf("plan field %q lacks the items; object %v", plan, obj)
	}
}

// TestPipedStdinJoinsThePrompt: with -p PROMPT, data piped on stdin is
// appended to the prompt (as claude -p does), not ignored.
func TestPipedStdinJoinsThePrompt(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "seen"})
	args, _ := headless(t, srv, "summarise this log")
	r := tick(t, nil, "panic: nil map write\ngoroutine 1 [running]\n", args...)
	if r.code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	reqs := srv.Requests()
	var user string
	for _, m := range reqs[0].Messages {
		if m.Role == "user" {
			user = m.Content
		}
	}
	if !strings.Contains(user, "summarise this log") || !strings.Contains(user, "panic: nil map write") {
		t.Errorf("the prompt sent is %q: want the -p prompt and the piped data", user)
	}
}

// TestForbiddenExitsAuth: a 403 (the key is valid but not allowed this
// model or project) exits 7 like a 401, with exit_reason auth in the
// result object.
func TestForbiddenExitsAuth(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Status: 403, Body: `{"error":{"message":"Project does not have access to model","type":"invalid_request_error"}}`})
	args, _ := headless(t, srv, "hi", "--output-format", "json")
	r := tick(t, map[string]string{"OPENAI_API_KEY": "sk-valid-but-forbidden"}, "", args...)
	if r.code != app.ExitAuth {
		t.Fatalf("exit %d, want %d (auth); stderr:\n%s", r.code, app.ExitAuth, r.stderr)
	}
	obj := resultOf(t, r)
	if obj["exit_reason"] != "auth" || obj["is_error"] != true {
		t.Errorf("result %v: want exit_reason auth, is_error", obj)
	}
}

// TestStreamStartAndResultFields: stream-json's start event names tick's
// version, the model, the tools offered and the sandbox (mode, and
// whether it is complete here); the result has claude -p's fields:
// is_error, num_turns with rounds, total_cost_usd (0 for a local
// server; printer's TestTotalCostUnknown has null), cached prompt tokens,
// duration_api_ms, model and version.
func TestStreamStartAndResultFields(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "hi", Usage: &providertest.Usage{PromptTokens: 100, CompletionTokens: 5, TotalTokens: 105,
		Details: &providertest.PromptDetails{CachedTokens: 60}}})
	args, _ := headless(t, srv, "hello", "--output-format", "stream-json", "--model", "corp-model")
	r := tick(t, nil, "", args...)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var start, res map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &start); err != nil {
		t.Fatal(err)
	}
	res = lastEventOf(t, r.stdout)
	if start["type"] != "start" || start["version"] != app.Version || start["model"] != "corp-model" || start["sandbox"] == "" || start["sandbox_complete"] == nil {
		t.Errorf("start event %v", start)
	}
	tools, _ := start["tools"].([]any)
	if !strings.Contains(fmt.Sprint(tools), "bash") || !strings.Contains(fmt.Sprint(tools), "todo") {
		t.Errorf("start tools %v", tools)
	}
	if res["type"] != "result" || res["is_error"] != false || res["num_turns"] != 1.0 || res["rounds"] != 1.0 || res["model"] != "corp-model" || res["version"] != app.Version {
		t.Errorf("result %v", res)
	}
	if v, ok := res["total_cost_usd"]; !ok || v != 0.0 { // a local server: free, and known to be
		t.Errorf("total_cost_usd %v (present %v): want 0", v, ok)
	}
	if u, _ := res["usage"].(map[string]any); u["cached_prompt_tokens"] != 60.0 {
		t.Errorf("usage %v: want 60 cached prompt tokens", res["usage"])
	}
	if _, ok := res["duration_api_ms"]; !ok {
		t.Errorf("result lacks duration_api_ms: %v", res)
	}
}

// lastEventOf parses a stream-json stdout's last line.
func lastEventOf(t *testing.T, stdout string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	return m
}

// TestGitWriteRefusedSaysNothingAllowsIt: a write into .git under --yolo
// is refused, and neither the model nor the exit message says --yolo
// would allow it: nothing does.
func TestGitWriteRefusedSaysNothingAllowsIt(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(call("write_file", map[string]any{"path": ".git/hooks/pre-commit", "content": "exit 0\n"}), providertest.Reply{Text: "could not"})
	args, ws := headless(t, srv, "add a hook", "--yolo", "--output-format", "json")
	if err := os.MkdirAll(filepath.Join(ws, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := tick(t, nil, "", args...)
	obj := resultOf(t, r)
	model := strings.Join(toolResults(srv.Requests()), "\n")
	msg, _ := obj["message"].(string)
	if r.code != app.ExitRefused || !strings.Contains(msg, "nothing allows") || strings.Contains(msg+model, "rerun with --yolo") {
		t.Errorf("exit %d, message %q, the model saw %q: want exit 3 saying nothing allows it, never --yolo", r.code, msg, model)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the hook was written")
	}
}
