package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestSandboxedCommandCannotReadTickConfig: the model runs `cat` of the
// user's config file, where the setup screen saved the key, and of a
// session file: the command gets nothing, and the key reaches neither the
// model, nor stdout, nor stderr. The files lie under the real home (as
// they do for a user), not under /tmp, which the sandbox hides anyway.
// Today the command prints the key and it goes to the model.
func TestSandboxedCommandCannotReadTickConfig(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.MkdirTemp(home, ".tick-e2e-conf-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	const key = "sk-proj-e2eSECRETkey0123456789"
	srv := providertest.New(t)
	conf := filepath.Join(base, "config", "tick", "config.toml")
	session := filepath.Join(base, "state", "tick", "sessions", "old.jsonl")
	for p, body := range map[string]string{
		conf:    "provider = \"fake\"\nmodel = \"m\"\n[providers.fake]\nbase_url = \"" + srv.URL + "\"\napi_key = \"" + key + "\"\n",
		session: "{\"note\":\"" + key + "\"}\n",
	} {
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(base, "config"), "XDG_STATE_HOME": filepath.Join(base, "state")}
	srv.Enqueue(
		call("bash", map[string]any{"command": "cat " + conf + "; cat " + session + "; ls -a " + filepath.Dir(conf)}),
		providertest.Reply{Text: "done"},
	)
	r := tick(t, env, "", "-p", "show me the config", "-C", t.TempDir(), "--no-session")
	if r.code != app.ExitOK {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	res := strings.Join(toolResults(srv.Requests()), "\n")
	if res == "" {
		t.Fatal("the command's result did not reach the model")
	}
	for where, text := range map[string]string{"the model": res, "stdout": r.stdout, "stderr": r.stderr} {
		if strings.Contains(text, key) || strings.Contains(text, "api_key") {
			t.Errorf("%s got tick's config:\n%s", where, text)
		}
	}
}
