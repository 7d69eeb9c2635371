package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
	"github.com/tick-agent/tick/ui/app/apptest"
)

// switchedSession saves a session of workspace ws (under env's state
// directory) whose /model switched to model of the config's provider
// name before its first message.
func switchedSession(t *testing.T, env map[string]string, ws, name, model string) {
	t.Helper()
	dir, err := session.DefaultDir(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	rec := session.NewRecorder(dir, ws, "m")
	defer rec.Close()
	if err := rec.ModelOn(name, model); err != nil {
		t.Fatal(err)
	}
	for _, m := range []provider.Message{{Role: provider.RoleUser, Content: "hello"}, {Role: provider.RoleAssistant, Content: "hi"}} {
		if err := rec.Message(m); err != nil {
			t.Fatal(err)
		}
	}
}

// TestResumedProviderFailureIsOneJSONObject (seam: resume carrying the
// provider × -p JSON): a resumed session's provider whose base URL
// cannot make a client is a usage error like any other, and -p with
// --output-format json still prints the one result object. The path that
// rebuilt the client wrote only stderr.
func TestResumedProviderFailureIsOneJSONObject(t *testing.T) {
	mine := providertest.New(t)
	conf := "provider = \"mine\"\nmodel = \"m\"\n[providers.mine]\nbase_url = \"" + mine.URL + "\"\n[providers.theirs]\nbase_url = \"http://:8080\"\n"
	env, _ := userConfig(t, conf)
	env["XDG_STATE_HOME"] = t.TempDir()
	env["HOME"] = t.TempDir()
	ws := t.TempDir()
	switchedSession(t, env, ws, "theirs", "their-model")

	r := tick(t, env, "", "-p", "go on", "-C", ws, "-c", "--output-format", "json")
	obj := resultOf(t, r)
	if r.code != app.ExitUsage || obj["exit_code"] != float64(app.ExitUsage) || obj["exit_reason"] != app.ReasonUsage || obj["is_error"] != true {
		t.Fatalf("exit %d, result %v\nstderr:\n%s", r.code, obj, r.stderr)
	}
	if len(mine.Requests()) != 0 {
		t.Errorf("the run's own server got %d requests: the session's provider was not kept", len(mine.Requests()))
	}
}

// twoTasks answers the parent's first request with two tasks side by
// side whose prompts are "CHILD 1" and "CHILD 2"; each child, once both
// are under way (so both copies are made), runs child(n) as its one
// bash command, then reports. The parent then answers "done".
func twoTasks(srv *providertest.Server, child func(n string) string) {
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		switch n, isChild := strings.CutPrefix(r.Messages[1].Content, "CHILD "); {
		case isChild && r.Last().Role == "user":
			srv.WaitOpen(2, 10*time.Second)
			return call("bash", map[string]any{"command": child(n)})
		case isChild:
			return providertest.Reply{Text: "report " + n}
		case r.Last().Role == "user":
			return providertest.Reply{ToolCalls: []providertest.Call{
				{Name: "task", Args: `{"description":"one","prompt":"CHILD 1"}`},
				{Name: "task", Args: `{"description":"two","prompt":"CHILD 2"}`},
			}}
		}
		return providertest.Reply{Text: "done"}
	})
}

// parallelWorkspace returns a workspace whose project config lets two
// tasks run at once (the fake server reports no slots).
func parallelWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".tick"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".tick", "config.toml"), []byte("max_parallel_tasks = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestVerifyPassedTaskNotApplied (seam: --verify × parallel tasks × the
// task_not_applied exit, -p): two tasks write the same new file; the
// second one's patch conflicts and its copy is kept. The check passes on
// the file the first one wrote, yet the run is not done: it exits 4,
// task_not_applied, naming the kept copy, with the passed check in the
// object.
func TestVerifyPassedTaskNotApplied(t *testing.T) {
	srv := providertest.New(t)
	twoTasks(srv, func(n string) string { return "echo " + n + " > f.txt" })
	ws := parallelWorkspace(t)
	env, _ := apptest.StateEnv(t)
	r := tick(t, env, "", "-p", "two tasks", "--base-url", srv.URL, "-C", ws, "--yolo", "--output-format", "json", "--verify", "test -s f.txt")
	obj := resultOf(t, r)
	kept, _ := obj["kept_copies"].([]any)
	for _, k := range kept {
		defer os.RemoveAll(k.(string))
	}
	v, _ := obj["verify"].(map[string]any)
	if r.code != app.ExitUnfinished || obj["exit_reason"] != app.ReasonNotApplied || len(kept) != 1 || v["passed"] != true {
		t.Fatalf("exit %d, reason %v, kept %v, verify %v; want 4, %s, one copy, passed\nstderr:\n%s", r.code, obj["exit_reason"], kept, v, app.ReasonNotApplied, r.stderr)
	}
	if msg, _ := obj["message"].(string); !strings.Contains(msg, kept[0].(string)) {
		t.Errorf("message %q does not name the kept copy %s", msg, kept[0])
	}
}

// TestSecretsMaskedInParallelTasks (seam: secrets scrub × parallel tasks
// × -p stream-json): tasks' commands print tick's API key (from a file); it reaches
// neither the model (the tasks' requests or the parent's) nor stdout.
func TestSecretsMaskedInParallelTasks(t *testing.T) {
	const key = "sk-task-key-0123456789abcdef"
	srv := providertest.New(t)
	twoTasks(srv, func(string) string { return "cat key.txt" })
	ws := parallelWorkspace(t)
	if err := os.WriteFile(filepath.Join(ws, "key.txt"), []byte("key="+key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, _ := apptest.StateEnv(t)
	env["OPENAI_API_KEY"] = key
	r := tick(t, env, "", "-p", "two tasks", "--base-url", srv.URL, "-C", ws, "--yolo", "--output-format", "stream-json")
	var all []string // every tool result any request carried: the tasks' and the parent's
	for _, req := range srv.Requests() {
		for _, m := range req.Messages {
			if m.Role == "tool" && strings.Contains(m.Content, "key=") {
				all = append(all, m.Content)
			}
		}
	}
	results := strings.Join(all, "\n")
	if r.code != app.ExitOK || strings.Count(results, "key=[redacted by tick]") < 2 {
		t.Fatalf("exit %d; want both tasks' commands run and masked; tool results:\n%s\nstderr:\n%s", r.code, results, r.stderr)
	}
	for where, text := range map[string]string{"the model": results, "stdout": r.stdout} {
		if strings.Contains(text, key) {
			t.Errorf("%s saw the key", where)
		}
	}
}

// TestResumedProviderCarriesIntoTasks (seam: resume carrying the model
// and provider × tasks, -p): the tasks of a run resumed on the session's
// switched provider talk to that provider with its model, as the parent
// does; the run's own server hears nothing.
func TestResumedProviderCarriesIntoTasks(t *testing.T) {
	mine, theirs := providertest.New(t), providertest.New(t)
	conf := "provider = \"mine\"\nmodel = \"m\"\n[providers.mine]\nbase_url = \"" + mine.URL + "\"\n[providers.theirs]\nbase_url = \"" + theirs.URL + "\"\n"
	env, _ := userConfig(t, conf)
	env["XDG_STATE_HOME"] = t.TempDir()
	env["HOME"] = t.TempDir()
	ws := t.TempDir()
	switchedSession(t, env, ws, "theirs", "their-model")
	theirs.SetFunc(func(r providertest.Request) providertest.Reply {
		switch {
		case r.Messages[1].Content == "look around":
			return providertest.Reply{Text: "looked"} // the task
		case r.Last().Role == "user":
			return providertest.Reply{ToolCalls: []providertest.Call{{Name: "task", Args: `{"description":"look","prompt":"look around"}`}}}
		}
		return providertest.Reply{Text: "done"}
	})
	r := tick(t, env, "", "-p", "go on", "-C", ws, "-c", "--yolo")
	reqs := theirs.Requests()
	if r.code != app.ExitOK || len(reqs) != 3 {
		t.Fatalf("exit %d, %d requests to the session's provider (want the parent's two and the task's)\nstderr:\n%s", r.code, len(reqs), r.stderr)
	}
	for _, req := range reqs {
		if req.Model != "their-model" {
			t.Errorf("a request asked for model %q, want their-model", req.Model)
		}
	}
	if n := len(mine.Requests()); n != 0 {
		t.Errorf("the run's own server got %d requests", n)
	}
}

// TestE2EBudgetStopsAnOpenDialog (seam: the stop words after a budget ×
// an open approval dialog, in the full-screen app): the time budget runs
// out while "Allow bash?" waits; the dialog goes, the command never runs,
// and the model is told next turn that the time budget stopped the call
// while it waited for approval, never that the user interrupted it.
func TestE2EBudgetStopsAnOpenDialog(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv, bashStep("touch ran"), textStep("Carried on."))
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws, "--sandbox", "danger-full-access", "--max-time", "2s")
	p.prompt("start")
	p.waitFor("Allow bash?")
	p.waitGone("Allow bash?") // the budget, not a key, closes it
	p.prompt("go on")
	p.waitFor("Carried on.")
	if _, err := os.Stat(filepath.Join(ws, "ran")); err == nil {
		t.Error("the command waiting for approval ran")
	}
	res := toolResults(srv.Requests())
	if len(res) != 1 || !strings.Contains(res[0], "stopped by the time budget") || !strings.Contains(res[0], "waiting for approval") || strings.Contains(res[0], "user") {
		t.Fatalf("tool results %q: want the time budget named, the wait for approval, no word of the user", res)
	}
}

// TestEmptyStdinPromptIsOneJSONObject: -p - reading an empty stdin is a
// usage error reported as the one result object, like every failure
// before the turn.
func TestEmptyStdinPromptIsOneJSONObject(t *testing.T) {
	srv := providertest.New(t)
	env, _ := apptest.StateEnv(t)
	r := tick(t, env, "", "-p", "-", "--base-url", srv.URL, "-C", t.TempDir(), "--output-format", "json")
	obj := resultOf(t, r)
	if r.code != app.ExitUsage || obj["exit_reason"] != app.ReasonUsage || !strings.Contains(obj["message"].(string), "empty prompt") {
		t.Fatalf("exit %d, result %v", r.code, obj)
	}
}
