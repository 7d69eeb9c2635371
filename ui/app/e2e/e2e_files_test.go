package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestE2EHostileRepoHeadless is issue 18 items 2 and 4 end to end: in a
// repository whose AGENTS.md links to /proc/self/environ, whose
// sub/CLAUDE.md links to a private key outside it, whose custom commands
// are a named pipe and a link to /dev/zero and whose .tick/config.toml is
// a named pipe, the real binary's `tick -p` finishes, names every skipped
// file on stderr, and sends none of their content (nor the environment's
// secrets) to the model.
func TestE2EHostileRepoHeadless(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "all done"})
	repo, ws, cmds := hostileRepo(t)
	const secret = "sk-e2e-fake-secret-0123456789"
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-p", "hi, see @/etc/hostname", "--base-url", srv.URL, "-C", ws, "--no-session", "--completion-reminder=false")
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TICK_E2E_FAKE_SECRET=" + secret, "OPENAI_API_KEY=" + secret + "-key"}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("tick -p did not finish in a repository with special files (stderr %q)", stderr.String())
	}
	if err != nil || !strings.Contains(stdout.String(), "all done") {
		t.Fatalf("tick -p: %v, stdout %q, stderr %q", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{
		filepath.Join(repo, "AGENTS.md") + ": it leads outside",
		filepath.Join(ws, "CLAUDE.md") + ": it leads outside",
		filepath.Join(cmds, "x.md") + ": not a regular file (a named pipe)",
		filepath.Join(cmds, "zero.md") + ": it leads outside",
		filepath.Join(ws, ".tick", "config.toml") + ": not a regular file (a named pipe)",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the model")
	}
	for _, leak := range []string{secret, "PRIVATE KEY", "PATH=", `path="/etc/hostname"`} {
		if strings.Contains(string(reqs[0].Body), leak) {
			t.Errorf("the request to the model holds %q", leak)
		}
	}
}

// TestProjectProviderNeedsTrust: a project's .tick/config.toml that picks
// another provider of the user's file does not send the conversation
// there until the user trusts the project; its model applies at once.
func TestProjectProviderNeedsTrust(t *testing.T) {
	mine, theirs := providertest.New(t), providertest.New(t)
	env, _ := userConfig(t, "provider = \"mine\"\nmodel = \"m\"\n[providers.mine]\nbase_url = \""+mine.URL+"\"\n[providers.theirs]\nbase_url = \""+theirs.URL+"\"\n")
	env["XDG_STATE_HOME"] = t.TempDir()
	ws := t.TempDir()
	proj := filepath.Join(ws, ".tick", "config.toml")
	if err := os.MkdirAll(filepath.Dir(proj), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(proj, []byte("provider = \"theirs\"\nmodel = \"m-project\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mine.Enqueue(providertest.Reply{Text: "from mine"})
	r := tick(t, env, "", "-p", "hi", "-C", ws, "--no-session")
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "from mine") || !strings.Contains(r.stderr, "provider theirs") {
		t.Fatalf("untrusted run: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if n := len(theirs.Requests()); n != 0 {
		t.Fatalf("the project's provider got %d requests before it was trusted", n)
	}
	if got := mine.Requests()[0].Model; got != "m-project" {
		t.Errorf("model %q, want the project's m-project", got)
	}
	r = tick(t, env, "", "mcp", "trust", "-C", ws)
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "provider theirs") {
		t.Fatalf("tick mcp trust: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	theirs.Enqueue(providertest.Reply{Text: "from theirs"})
	r = tick(t, env, "", "-p", "hi", "-C", ws, "--no-session")
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "from theirs") || strings.Contains(r.stderr, "provider theirs") {
		t.Fatalf("trusted run: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

// hostileRepo makes a repository whose AGENTS.md links to
// /proc/self/environ, whose sub/CLAUDE.md links to a private key outside
// it, and whose sub/.tick holds a named pipe and a link to /dev/zero as
// custom commands and a named pipe as config.toml. It returns the
// repository, the workspace (sub) and the commands directory.
func hostileRepo(t *testing.T) (repo, ws, cmds string) {
	t.Helper()
	top := t.TempDir()
	repo = filepath.Join(top, "repo")
	ws = filepath.Join(repo, "sub")
	cmds = filepath.Join(ws, ".tick", "commands")
	for _, d := range []string{filepath.Join(repo, ".git"), cmds} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	key := filepath.Join(top, "id_rsa")
	if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		filepath.Join(repo, "AGENTS.md"): "/proc/self/environ",
		filepath.Join(ws, "CLAUDE.md"):   key,
		filepath.Join(cmds, "zero.md"):   "/dev/zero",
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(cmds, "x.md"), filepath.Join(ws, ".tick", "config.toml")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo, ws, cmds
}

// TestE2EHostileRepoApp: the full-screen app starts in the same
// repository and shows the skipped files as notices.
func TestE2EHostileRepoApp(t *testing.T) {
	srv := providertest.New(t)
	_, ws, _ := hostileRepo(t)
	p := startAppAt(t, srv, t.TempDir(), ws)
	p.waitFor("x.md: not a regular file (a named pipe)", "config.toml: not a regular file", "zero.md: it leads outside")
}
