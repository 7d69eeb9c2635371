package e2e

import (
	"os"
	"testing"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
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
