package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/ui/app"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestCommandsSeeNoSecrets runs `env` as the model would and checks that
// neither tick's API key nor any secret-looking variable reaches the
// command, unless allowed by name with --env-allow.
func TestCommandsSeeNoSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-tick-own-key")
	t.Setenv("GITHUB_TOKEN", "ghp-secret-token")
	t.Setenv("Db_Password", "hunter2")
	t.Setenv("MY_SECRET_THING", "s3cr3t")
	t.Setenv("NPM_TOKEN", "npm-allowed")
	t.Setenv("TICK_TEST_PLAIN", "plain-value")
	srv := providertest.New(t)
	srv.Enqueue(
		call("bash", map[string]any{"command": "env; cat /proc/$PPID/environ 2>/dev/null | tr '\\0' '\\n'"}),
		providertest.Reply{Text: "done"},
	)
	args, _ := headless(t, srv, "show the environment", "--yolo", "--env-allow", "NPM_TOKEN")
	r := tick(t, map[string]string{"OPENAI_API_KEY": "sk-tick-own-key"}, "", args...)
	if r.code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	res := strings.Join(toolResults(srv.Requests()), "\n")
	if !strings.Contains(res, "TICK_TEST_PLAIN=plain-value") {
		t.Fatalf("env output lacks an ordinary variable; result:\n%s", res)
	}
	for _, secret := range []string{"sk-tick-own-key", "ghp-secret-token", "hunter2", "s3cr3t"} {
		if strings.Contains(res, secret) {
			t.Errorf("a command saw the secret %q; result:\n%s", secret, res)
		}
	}
	if !strings.Contains(res, "NPM_TOKEN=npm-allowed") {
		t.Errorf("--env-allow NPM_TOKEN did not pass the variable; result:\n%s", res)
	}
	checkValid(t, srv)
}

// TestDoctor: tick doctor says what the sandbox does here, mechanism by
// mechanism, and whether git is installed; it needs no model.
func TestDoctor(t *testing.T) {
	ws := t.TempDir()
	r := tick(t, nil, "", "doctor", "-C", ws)
	if r.code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"sandbox: workspace-write", "Landlock ABI", "seccomp", "namespaces", "Unix sockets", "git version", ws, "tokens: system prompt ~"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("tick doctor does not mention %q:\n%s", want, r.stdout)
		}
	}
	r = tick(t, nil, "", "doctor", "-C", ws, "--sandbox", "danger-full-access")
	if !strings.Contains(r.stdout, "sandbox: off (danger-full-access)") || !strings.Contains(r.stdout, "each one asks first") {
		t.Errorf("tick doctor --sandbox danger-full-access:\n%s", r.stdout)
	}
	if r := tick(t, nil, "", "doctor", "--yolo"); r.code != app.ExitUsage {
		t.Errorf("tick doctor --yolo: exit %d, want %d", r.code, app.ExitUsage)
	}
}

// TestMCPServersAndHooksSeeNoSecrets: an MCP server and a hook get the
// same scrubbed environment as commands (no API key, no secret-looking
// variable unless in env_allow); the server also gets its own env table,
// which may pass a token on purpose.
func TestMCPServersAndHooksSeeNoSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-tick-own-key")
	t.Setenv("GITHUB_TOKEN", "ghp-secret-token")
	t.Setenv("NPM_TOKEN", "npm-allowed")
	t.Setenv("TICK_TEST_PLAIN", "plain-value")
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "done"})
	dir := t.TempDir()
	serverEnv, hookEnv := filepath.Join(dir, "server.env"), filepath.Join(dir, "hook.env")
	env, _ := userConfig(t, fmt.Sprintf(`provider = "fake"
model = "m"
env_allow = ["NPM_TOKEN"]
[providers.fake]
base_url = %q
[mcp_servers.dump]
command = "sh"
args = ["-c", "env > %s; exit 3"]
env = {GIVEN_TOKEN = "given-on-purpose"}
[[hooks.stop]]
command = "env > %s"
`, srv.URL, serverEnv, hookEnv))
	env["XDG_STATE_HOME"] = t.TempDir()
	env["OPENAI_API_KEY"] = "sk-tick-own-key"
	r := tick(t, env, "", "-p", "hi", "-C", t.TempDir(), "--no-session")
	if r.code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	for _, f := range []struct {
		path      string
		want, not []string
	}{
		{serverEnv, []string{"TICK_TEST_PLAIN=plain-value", "NPM_TOKEN=npm-allowed", "GIVEN_TOKEN=given-on-purpose"}, []string{"sk-tick-own-key", "ghp-secret-token"}},
		{hookEnv, []string{"TICK_TEST_PLAIN=plain-value", "NPM_TOKEN=npm-allowed"}, []string{"sk-tick-own-key", "ghp-secret-token", "given-on-purpose"}},
	} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatalf("read %s: %v (stderr:\n%s)", f.path, err, r.stderr)
		}
		for _, w := range f.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %s:\n%s", filepath.Base(f.path), w, b)
			}
		}
		for _, secret := range f.not {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds the secret %q", filepath.Base(f.path), secret)
			}
		}
	}
}
