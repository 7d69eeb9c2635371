package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// pipeRun is one run of the real binary: its exit code and output.
type pipeRun struct {
	code           int
	stdout, stderr string
}

// runBin runs bin with args in dir and exactly env (plus PATH).
func runBin(t *testing.T, bin, dir string, env []string, args ...string) pipeRun {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %s: %v", bin, err)
	}
	return pipeRun{code, out.String(), errb.String()}
}

// pipeEnv is an environment with a home of its own.
func pipeEnv(t *testing.T) []string {
	home := t.TempDir()
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".state"), "TERM=dumb"}
}

// jsonLines parses stdout's JSON lines.
func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var evs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not a JSON line: %q", l)
		}
		evs = append(evs, m)
	}
	return evs
}

// TestE2EPipeSandboxBlocked: a command the sandbox blocked (a write into
// .git) fails the run with exit 3; tool_end has its exit code, the
// progress line shows ✗ exit 1, stream-json starts with the session and
// ends with the result naming the reason.
func TestE2EPipeSandboxBlocked(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	ws := t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(call("bash", map[string]any{"command": "echo x > .git/index.lock"}), providertest.Reply{Text: "Committed."})
	r := runBin(t, bin, ws, pipeEnv(t), "-p", "commit", "--base-url", srv.URL, "--output-format", "stream-json")
	if r.code != 3 {
		t.Fatalf("exit %d, want 3\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	evs := jsonLines(t, r.stdout)
	first, last := evs[0], evs[len(evs)-1]
	if first["type"] != "start" || first["workspace"] != ws || first["session_id"] == "" {
		t.Errorf("first event = %v", first)
	}
	if last["type"] != "result" || last["exit_reason"] != "sandbox_blocked" || last["exit_code"] != float64(3) {
		t.Errorf("last event = %v", last)
	}
	for _, ev := range evs {
		if ev["type"] == "tool_end" && (ev["exit_code"] != float64(1) || ev["sandbox_blocked"] != true || ev["is_error"] != true) {
			t.Errorf("tool_end = %v", ev)
		}
	}
	srv.Enqueue(call("bash", map[string]any{"command": "echo x > .git/index.lock"}), providertest.Reply{Text: "Committed."})
	r = runBin(t, bin, ws, pipeEnv(t), "-p", "commit", "--base-url", srv.URL)
	if r.code != 3 || !strings.Contains(r.stderr, "✗ 0.") || !strings.Contains(r.stderr, "exit 1") || strings.Contains(r.stderr, "✓") {
		t.Errorf("text mode: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// TestE2EPipeSessionResume: a run names its session on stderr, two runs
// in one directory get two sessions, and --resume ID -p carries on with
// exactly that one.
func TestE2EPipeSessionResume(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	ws, env := t.TempDir(), pipeEnv(t)
	idRe := regexp.MustCompile(`tick: session (\w+) · carry on with tick --resume (\w+)`)
	var ids []string
	for _, prompt := range []string{"first run", "second run"} {
		srv.Enqueue(providertest.Reply{Text: "ok " + prompt})
		r := runBin(t, bin, ws, env, "-p", prompt, "--base-url", srv.URL)
		m := idRe.FindStringSubmatch(r.stderr)
		if r.code != 0 || m == nil || m[1] != m[2] {
			t.Fatalf("exit %d, stderr does not name the session:\n%s", r.code, r.stderr)
		}
		ids = append(ids, m[1])
	}
	if ids[0] == ids[1] {
		t.Fatalf("two runs share session %s", ids[0])
	}
	srv.Enqueue(providertest.Reply{Text: "carried on"})
	r := runBin(t, bin, ws, env, "--resume", ids[0], "-p", "third", "--base-url", srv.URL)
	if r.code != 0 || !strings.Contains(r.stderr, "resumed session "+ids[0]) || !strings.Contains(r.stderr, "tick: session "+ids[0]) {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	var users []string
	for _, m := range last.Messages {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	if len(users) != 2 || !strings.Contains(users[0], "first run") || !strings.Contains(users[1], "third") {
		t.Errorf("the resumed run sent the user messages %q, want the first run's and the new one", users)
	}
}

// TestE2EPipeOneAnswerAfterReminder: after a completion reminder stdout
// holds only the last answer.
func TestE2EPipeOneAnswerAfterReminder(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	srv.Enqueue(
		todoReply(todoCall("Ship", "1:in_progress:build")),
		providertest.Reply{Text: "I am done."},
		todoReply(todoCall("Ship", "1:completed:build")),
		providertest.Reply{Text: "Really done."})
	r := runBin(t, bin, t.TempDir(), pipeEnv(t), "-p", "ship it", "--base-url", srv.URL)
	if r.code != 0 || r.stdout != "Really done.\n" {
		t.Fatalf("exit %d, stdout %q, want only the last answer\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestE2EPipeProviderFlagWins: --provider brings its own server over
// OPENAI_BASE_URL.
func TestE2EPipeProviderFlagWins(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	env := pipeEnv(t)
	cfgDir := filepath.Join(strings.TrimPrefix(env[1], "XDG_CONFIG_HOME="), "tick")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	conf := "[providers.local]\nbase_url = \"" + srv.URL + "\"\n"
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(providertest.Reply{Text: "from local"})
	env = append(env, "OPENAI_BASE_URL=http://127.0.0.1:9/v1")
	r := runBin(t, bin, t.TempDir(), env, "-p", "hi", "--provider", "local")
	if r.code != 0 || r.stdout != "from local\n" {
		t.Fatalf("exit %d, stdout %q\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestE2EPipeMissingHome: HOME that does not exist is not created; the
// run works without saving and says so once.
func TestE2EPipeMissingHome(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	home := filepath.Join(t.TempDir(), "nonexistent")
	srv.Enqueue(providertest.Reply{Text: "hello"})
	r := runBin(t, bin, t.TempDir(), []string{"HOME=" + home, "TERM=dumb"}, "-p", "hi", "--base-url", srv.URL)
	if r.code != 0 || r.stdout != "hello\n" {
		t.Fatalf("exit %d, stdout %q\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("the missing HOME was created (stat: %v)", err)
	}
	if n := strings.Count(r.stderr, "not saving"); n != 1 {
		t.Errorf("%d warnings about saving, want 1:\n%s", n, r.stderr)
	}
}

// TestE2EPipeBudgetAndStartError: --max-turns stops the run with exit 6
// naming the budget; a start-up failure with --json is a JSON error
// event, and the stream ends with its result event.
func TestE2EPipeBudgetAndStartError(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	srv.Enqueue(call("bash", map[string]any{"command": "true"}), call("bash", map[string]any{"command": "true"}))
	r := runBin(t, bin, t.TempDir(), pipeEnv(t), "-p", "loop", "--base-url", srv.URL, "--max-turns", "1", "--output-format", "json")
	var res map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != 6 || res["exit_reason"] != "budget" || !strings.Contains(r.stderr, "1 model calls") {
		t.Fatalf("exit %d, result %q (%v)\nstderr:\n%s", r.code, r.stdout, err, r.stderr)
	}
	r = runBin(t, bin, t.TempDir(), pipeEnv(t), "-p", "hi", "--json")
	evs := jsonLines(t, r.stdout)
	if r.code != 2 || len(evs) != 2 || evs[0]["type"] != "error" || evs[0]["exit_code"] != float64(2) || evs[1]["type"] != "result" || evs[1]["exit_code"] != float64(2) {
		t.Fatalf("exit %d, stdout %q", r.code, r.stdout)
	}
}
