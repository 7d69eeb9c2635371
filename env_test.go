package main

import (
	"strings"
	"testing"

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
	if r.code != exitOK {
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
	if r.code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"sandbox: workspace-write", "Landlock ABI", "seccomp", "namespaces", "Unix sockets", "git version", ws} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("tick doctor does not mention %q:\n%s", want, r.stdout)
		}
	}
	r = tick(t, nil, "", "doctor", "-C", ws, "--sandbox", "danger-full-access")
	if !strings.Contains(r.stdout, "sandbox: off (danger-full-access)") || !strings.Contains(r.stdout, "each one asks first") {
		t.Errorf("tick doctor --sandbox danger-full-access:\n%s", r.stdout)
	}
	if r := tick(t, nil, "", "doctor", "--yolo"); r.code != exitUsage {
		t.Errorf("tick doctor --yolo: exit %d, want %d", r.code, exitUsage)
	}
}
