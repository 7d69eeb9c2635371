package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/ui/app"

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
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "hello from the file") {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if got := srv.Requests()[0].Model; got != "m-file" {
		t.Errorf("model %q, want the file's m-file", got)
	}
}

func TestBadConfigFile(t *testing.T) {
	env, path := userConfig(t, "model = \"m\"\nsandbox = 3\n")
	r := tick(t, env, "", "-p", "hi", "-C", t.TempDir())
	if r.code != app.ExitUsage || !strings.Contains(r.stderr, path+":2: ") {
		t.Errorf("exit %d stderr %q, want 2 and %s:2:", r.code, r.stderr, path)
	}
}

func TestConfigCommand(t *testing.T) {
	env, path := userConfig(t, "model = \"m-file\"\nbogus = 1\n[providers.x]\nbase_url = \"http://127.0.0.1:9/v1\"\n")
	env["OPENAI_API_KEY"] = "sk-abcdefghijklmnop"
	r := tick(t, env, "", "config", "-C", t.TempDir())
	if r.code != app.ExitOK {
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
	if r.code != app.ExitOK || strings.TrimSpace(r.stdout) != path {
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
	if r.code != app.ExitUsage {
		t.Errorf("exit %d, want 2", r.code)
	}
}

// fakeOllama serves srv's OpenAI API plus Ollama's /api/show and /api/ps
// with the given bodies.
func fakeOllama(t *testing.T, srv *providertest.Server, show, ps string) string {
	t.Helper()
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/show":
			_, _ = w.Write([]byte(show))
		case "/api/ps":
			_, _ = w.Write([]byte(ps))
		default:
			srv.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(h.Close)
	return h.URL + "/v1"
}

func TestSmallContextWarning(t *testing.T) {
	tests := []struct {
		name, show, ps string
		want           []string
	}{
		{"Ollama default", `{"parameters":"stop x"}`, `{"models":[]}`, []string{"default context", "OLLAMA_CONTEXT_LENGTH=32768", "num_ctx 32768"}},
		{"Ollama loaded small", `{"parameters":""}`, `{"models":[{"name":"m","context_length":8192}]}`, []string{"8192 tokens", "OLLAMA_CONTEXT_LENGTH"}},
		{"large enough", `{"parameters":"num_ctx 65536"}`, `{"models":[]}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(providertest.Reply{Text: "ok"})
			base := fakeOllama(t, srv, tc.show, tc.ps)
			r := tick(t, nil, "", "-p", "hi", "--base-url", base, "--model", "m", "-C", t.TempDir(), "--no-session")
			if r.code != app.ExitOK {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if tc.want == nil && strings.Contains(r.stderr, "warning") {
				t.Errorf("unexpected warning:\n%s", r.stderr)
			}
		})
	}
}

func TestInstructionsInSystemPrompt(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "ok"})
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("Run make check before you finish."), 0o644); err != nil {
		t.Fatal(err)
	}
	r := tick(t, nil, "", "-p", "hi", "--base-url", srv.URL, "-C", ws, "--no-session", "--verbose")
	if r.code != app.ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	sys := srv.Requests()[0].Messages[0]
	if sys.Role != "system" || !strings.Contains(sys.Content, "Run make check before you finish.") || !strings.Contains(sys.Content, filepath.Join(ws, "AGENTS.md")) {
		t.Errorf("system prompt lacks the labelled instructions:\n%s", sys.Content)
	}
	if !strings.Contains(r.stderr, "project instructions: AGENTS.md") {
		t.Errorf("--verbose does not name the file:\n%s", r.stderr)
	}
}

// TestContinueKeepsTheConfiguredModel: a session that never switched
// models (/model) resumes with the model configured now, not the one it
// started with (the user may have set up another server since).
func TestContinueKeepsTheConfiguredModel(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "one"}, providertest.Reply{Text: "two"})
	ws, state := t.TempDir(), t.TempDir()
	env, _ := userConfig(t, "provider = \"mine\"\nmodel = \"now-configured\"\n[providers.mine]\nbase_url = \""+srv.URL+"\"\n")
	env["XDG_STATE_HOME"] = state
	if r := tick(t, env, "", "-p", "hi", "-C", ws, "--model", "started-with"); r.code != app.ExitOK {
		t.Fatalf("first run: %d %s", r.code, r.stderr)
	}
	if r := tick(t, env, "", "-c", "-p", "again", "-C", ws); r.code != app.ExitOK {
		t.Fatalf("tick -c: %d %s", r.code, r.stderr)
	}
	if got := srv.Requests()[1].Model; got != "now-configured" {
		t.Errorf("tick -c asked for %q, want the configured now-configured", got)
	}
}
