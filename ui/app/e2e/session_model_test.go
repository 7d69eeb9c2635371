package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestResumeCarriesProviderSwitch: a session whose /model switched to
// another provider of the config (before its first message, so the
// switch went with the header) carries both the model and the provider on
// with -c; once that provider is gone from the config, the resumed run
// says so and keeps its own model.
func TestResumeCarriesProviderSwitch(t *testing.T) {
	mine, theirs := providertest.New(t), providertest.New(t)
	conf := "provider = \"mine\"\nmodel = \"m\"\n[providers.mine]\nbase_url = \"" + mine.URL + "\"\n[providers.theirs]\nbase_url = \"" + theirs.URL + "\"\n"
	env, path := userConfig(t, conf)
	env["XDG_STATE_HOME"] = t.TempDir()
	env["HOME"] = t.TempDir()
	ws := t.TempDir()
	dir, err := session.DefaultDir(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	rec := session.NewRecorder(dir, ws, "m")
	if err := rec.ModelOn("theirs", "their-model"); err != nil { // /model before the first prompt
		t.Fatal(err)
	}
	if err := rec.Message(provider.Message{Role: provider.RoleUser, Content: "hello"}); err != nil {
		t.Fatal(err)
	}
	if err := rec.Message(provider.Message{Role: provider.RoleAssistant, Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	rec.Close()

	theirs.Enqueue(providertest.Reply{Text: "from theirs"})
	r := tick(t, env, "", "-p", "go on", "-C", ws, "-c")
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "from theirs") {
		t.Fatalf("resumed run: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if reqs := theirs.Requests(); len(reqs) != 1 || reqs[0].Model != "their-model" {
		t.Fatalf("the switched provider got %d requests (%+v)", len(reqs), reqs)
	}

	// The provider is gone from the config: say so, carry on with the run's own.
	conf = "provider = \"mine\"\nmodel = \"m\"\n[providers.mine]\nbase_url = \"" + mine.URL + "\"\n"
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	mine.Enqueue(providertest.Reply{Text: "from mine"})
	r = tick(t, env, "", "-p", "and now", "-C", ws, "-c")
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "from mine") || !strings.Contains(r.stderr, `provider "theirs", which is no longer configured`) {
		t.Fatalf("resumed without the provider: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if got := mine.Requests()[0].Model; got != "m" {
		t.Errorf("model %q on the run's own server, want m", got)
	}
}
