package e2e

import (
	"encoding/json"
	"fmt"
	"time"

	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestE2EProtectedLinkApp: protected path + git guard + the approval
// dialog. The repository's config includes ../sub/inc.gitconfig, whose
// directory is missing; a sandboxed command makes sub a link to a
// directory of the user's outside the workspace. The git guard sees the
// protected path created, but the path names the user's own file through
// the link: tick must not move it aside and ask whether to keep it (a no
// would delete it); it says it could not move it aside, and the file stays.
// Today the dialog opens with the user's file already moved.
func TestE2EProtectedLinkApp(t *testing.T) {
	t.Parallel()
	ws, outside := t.TempDir(), t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"config", "include.path", "../sub/inc.gitconfig"}} {
		if out, err := exec.Command("git", append([]string{"-C", ws}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	victim := filepath.Join(outside, "inc.gitconfig")
	if err := os.WriteFile(victim, []byte("[user]\n\tname = me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := providertest.New(t)
	script(t, srv, bashStep("ln -s "+outside+" sub && echo linked"), textStep("All done."))
	p := startAppAt(t, srv, t.TempDir(), ws)
	p.waitFor("auto · sandbox: workspace-write")
	p.prompt("link it")
	screen := p.waitUntil("the turn's end or the keep question", func(s string) bool {
		return strings.Contains(s, "All done.") || strings.Contains(s, "Keep the git metadata")
	})
	if strings.Contains(screen, "Keep the git metadata") {
		t.Fatalf("tick asks whether to keep a file it moved through the link:\n%s", screen)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "[user]\n\tname = me\n" {
		t.Fatalf("the user's file outside the workspace: %q, %v", b, err)
	}
	if res := toolResults(srv.Requests()); len(res) != 1 || !strings.Contains(res[0], "could not move aside") {
		t.Errorf("tool results %q, want a note that the created path could not be moved aside", res)
	}
}

// TestE2EHiddenDirsInParallelTasks: hidden dirs + parallel tasks + -p.
// Two tasks side by side, each in its own copy with a runner of its own,
// run `cat` of the user's config file (where the key is) and of a session
// file: their commands get nothing, and the key reaches no request the
// model sees. The files lie under the real home, as a user's do.
func TestE2EHiddenDirsInParallelTasks(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.MkdirTemp(home, ".tick-e2e-hidden-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	const key = "sk-proj-e2eTASKsecret0123456789"
	srv := providertest.New(t)
	conf := filepath.Join(base, "config", "tick", "config.toml")
	session := filepath.Join(base, "state", "tick", "sessions", "old.jsonl")
	for p, body := range map[string]string{
		conf:    "provider = \"fake\"\nmodel = \"m\"\nmax_parallel_tasks = 2\n[providers.fake]\nbase_url = \"" + srv.URL + "\"\napi_key = \"" + key + "\"\n",
		session: "{\"note\":\"" + key + "\"}\n",
	} {
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		n, isChild := strings.CutPrefix(r.Messages[1].Content, "CHILD ")
		switch {
		case isChild && r.Last().Role == "user":
			srv.WaitOpen(2, 5*time.Second) // side by side where the machine allows
			return call("bash", map[string]any{"command": "cat " + conf + "; cat " + session + "; echo task " + n})
		case isChild:
			return providertest.Reply{Text: "report " + n}
		case r.Last().Role == "user":
			var cs []providertest.Call
			for i := 1; i <= 2; i++ {
				b, _ := json.Marshal(map[string]any{"description": fmt.Sprintf("part %d", i), "prompt": fmt.Sprintf("CHILD %d", i)})
				cs = append(cs, providertest.Call{Name: "task", Args: string(b)})
			}
			return providertest.Reply{ToolCalls: cs}
		}
		return providertest.Reply{Text: "done"}
	})
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(base, "config"), "XDG_STATE_HOME": filepath.Join(base, "state")}
	r := tick(t, env, "", "-p", "two parts", "-C", t.TempDir(), "--no-session")
	if r.code != app.ExitOK {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	var all []string
	for _, req := range srv.Requests() { // the tasks' requests too
		all = append(all, toolResults([]providertest.Request{req})...)
	}
	res := strings.Join(all, "\n")
	if !strings.Contains(res, "task 1") || !strings.Contains(res, "task 2") {
		t.Fatalf("the tasks' commands did not both run:\n%s", res)
	}
	for where, text := range map[string]string{"the model": res, "stdout": r.stdout, "stderr": r.stderr} {
		if strings.Contains(text, key) || strings.Contains(text, "api_key") {
			t.Errorf("%s got tick's config through a task:\n%s", where, text)
		}
	}
}

// TestE2ELinkedWorkspaceHeadless: protected paths + git guard + -p in a
// workspace named through a symbolic link (tick -C ~/src/app where app
// is a link). A sandboxed command writes a hook into core.hooksPath
// (named by an included ../.gitconfig), rewrites the project's .tick and
// creates a repository: the writes are refused and the repository is
// removed, as in a workspace named by its real path.
func TestE2ELinkedWorkspaceHeadless(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.MkdirTemp(home, ".tick-e2e-linked-") // the sandbox hides /tmp
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	real, ws := filepath.Join(base, "data", "app"), filepath.Join(base, "app")
	for name, body := range map[string]string{".gitconfig": "[core]\n\thooksPath = .githooks\n", ".githooks/pre-push": "exit 0\n", ".tick/commands/x.md": "x\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(real, name)), 0o755)
		if err := os.WriteFile(filepath.Join(real, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"config", "include.path", "../.gitconfig"}} {
		if out, err := exec.Command("git", append([]string{"-C", real}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.Symlink(real, ws); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(base, "ran")
	srv := providertest.New(t)
	srv.Enqueue(
		call("bash", map[string]any{"command": "echo 'touch " + marker + "' > .githooks/pre-commit; echo evil >> .tick/commands/x.md; mkdir sub && " + plantFsmonitorIn("sub", marker) + "; echo finished"}),
		providertest.Reply{Text: "done"})
	r := tick(t, map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(base, "state")}, "", "-p", "go", "--base-url", srv.URL, "-C", ws, "--no-session")
	if r.code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if _, err := os.Lstat(filepath.Join(real, ".githooks", "pre-commit")); err == nil {
		t.Error("a hook was planted in core.hooksPath")
	}
	if b, _ := os.ReadFile(filepath.Join(real, ".tick", "commands", "x.md")); string(b) != "x\n" {
		t.Errorf(".tick was rewritten: %q", b)
	}
	if userGitRan(filepath.Join(real, "sub"), marker) {
		t.Error("the user's git ran the core.fsmonitor of a repository a sandboxed command created")
	}
	if !strings.Contains(r.stderr, "removed git metadata a sandboxed command created: sub/.git") {
		t.Errorf("stderr does not say sub/.git was removed:\n%s", r.stderr)
	}
}

// plantFsmonitorIn is plantFsmonitor run in the directory dir.
func plantFsmonitorIn(dir, marker string) string {
	return "(cd " + dir + " && " + plantFsmonitor(marker) + ")"
}
