package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// userConfig writes text as the user config file under a fresh
// XDG_CONFIG_HOME and returns that environment and the file's path.
func userConfig(t *testing.T, text string) (map[string]string, string) {
	t.Helper()
	home := t.TempDir()
	path := filepath.Join(home, "tick", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"XDG_CONFIG_HOME": home}, path
}

func TestConfigFileRunsHeadless(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "hello from the file"})
	env, _ := userConfig(t, "provider = \"mine\"\nmodel = \"m-file\"\n[providers.mine]\nbase_url = \""+srv.URL+"\"\n")
	r := tick(t, env, "", "-p", "hi", "-C", t.TempDir(), "--no-session")
	if r.code != exitOK || !strings.Contains(r.stdout, "hello from the file") {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if got := srv.Requests()[0].Model; got != "m-file" {
		t.Errorf("model %q, want the file's m-file", got)
	}
}

func TestBadConfigFile(t *testing.T) {
	env, path := userConfig(t, "model = \"m\"\nsandbox = 3\n")
	r := tick(t, env, "", "-p", "hi", "-C", t.TempDir())
	if r.code != exitUsage || !strings.Contains(r.stderr, path+":2: ") {
		t.Errorf("exit %d stderr %q, want 2 and %s:2:", r.code, r.stderr, path)
	}
}

func TestConfigCommand(t *testing.T) {
	env, path := userConfig(t, "model = \"m-file\"\nbogus = 1\n[providers.x]\nbase_url = \"http://127.0.0.1:9/v1\"\n")
	env["OPENAI_API_KEY"] = "sk-abcdefghijklmnop"
	r := tick(t, env, "", "config", "-C", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	for _, w := range []string{"m-file", "user file " + path, "****mnop", "env OPENAI_API_KEY", path + ":2: unknown key bogus"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("tick config lacks %q:\n%s", w, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "sk-abcdefghijklmnop") {
		t.Errorf("tick config shows the key:\n%s", r.stdout)
	}
	r = tick(t, env, "", "config", "path")
	if r.code != exitOK || strings.TrimSpace(r.stdout) != path {
		t.Errorf("tick config path: exit %d stdout %q, want %s", r.code, r.stdout, path)
	}
}

func TestNothingConfiguredNamesSetup(t *testing.T) {
	r := tick(t, map[string]string{"HOME": t.TempDir()}, "", "-p", "hi", "-C", t.TempDir())
	for _, w := range []string{"run tick", ".config/tick/config.toml", "OPENAI_API_KEY", "OPENAI_BASE_URL"} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q: %s", w, r.stderr)
		}
	}
	if r.code != exitUsage {
		t.Errorf("exit %d, want 2", r.code)
	}
}
