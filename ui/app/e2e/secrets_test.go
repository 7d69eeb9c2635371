package e2e

import (
	"github.com/tick-agent/tick/ui/app/apptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestCISecretsStayHome: GitLab's CI_REPOSITORY_URL (the job token in the
// URL's userinfo) is not in the commands' environment, and tick's own API
// key, in a file and in `env` output, is masked: neither reaches the
// model, the stream-json output nor the session.
func TestCISecretsStayHome(t *testing.T) {
	const token, key = "glcbt-64_jobtoken0123456789abcdef", "sk-pipeline-key-0123456789abcd"
	t.Setenv("CI_REPOSITORY_URL", "https://gitlab-ci-token:"+token+"@gitlab.example.com/g/p.git")
	t.Setenv("TICK_TEST_KEY_HOLDER", key) // a name that does not look secret, holding the key
	srv := providertest.New(t)
	srv.Enqueue(
		call("bash", map[string]any{"command": "env; cat key.txt"}),
		providertest.Reply{Text: "looked"})
	env, state := apptest.StateEnv(t)
	env["OPENAI_API_KEY"] = key
	args, ws := headless(t, srv, "look around", "--yolo", "--output-format", "stream-json")
	if err := os.WriteFile(filepath.Join(ws, "key.txt"), []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := tick(t, env, "", args...)
	results := strings.Join(toolResults(srv.Requests()), "\n")
	if !strings.Contains(results, "PATH=") {
		t.Fatalf("the command did not run; exit %d, stderr:\n%s", r.code, r.stderr)
	}
	var saved []byte
	_ = filepath.WalkDir(state, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			b, _ := os.ReadFile(p)
			saved = append(saved, b...)
		}
		return nil
	})
	if len(saved) == 0 {
		t.Fatal("no session was saved")
	}
	for where, text := range map[string]string{"the model": results, "stdout": r.stdout, "the session": string(saved)} {
		for _, secret := range []string{token, key} {
			if strings.Contains(text, secret) {
				t.Errorf("%s saw %q", where, secret)
			}
		}
	}
}
