package e2e

import (
	"encoding/json"
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
	env, state := stateEnv(t)
	ws := t.TempDir()
	srv.Enqueue(providertest.Reply{Text: "first"})
	mustRun(t, env, "-p", "first", "--base-url", srv.URL, "-C", ws)
	info := listSessions(t, state, ws)[0]
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
