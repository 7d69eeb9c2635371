package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeModule writes a small Go module with a test into dir.
func writeModule(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		"go.mod":    "module example.com/c\n\ngo 1.21\n",
		"c.go":      "package c\n\nfunc Three() int { return 3 }\n",
		"c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestThree(t *testing.T) { if Three() != 3 { t.Fatal(\"bad\") } }\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCommandsHaveCachesOfTheirOwn runs commands with the cache directory
// tick itself would choose (CommandCacheDir) under a home of the test's:
// a write into the user's ~/.cache is refused, a write into the commands'
// cache directory succeeds, and `go build` caches there.
func TestCommandsHaveCachesOfTheirOwn(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("go is not on PATH")
	}
	realHome, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	home, err := os.MkdirTemp(realHome, ".tick-cache-test-") // visible inside, unlike /tmp
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	own, err := CommandCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	userCache := filepath.Join(home, ".cache")
	if !strings.HasPrefix(own, userCache+"/") {
		t.Fatalf("the commands' cache %s is not under the user's %s", own, userCache)
	}
	exe := helperFor(t)
	ws := t.TempDir()
	writeModule(t, ws)
	p := Policy{Mode: WorkspaceWrite, Workspace: ws, TempDir: t.TempDir(), CacheDir: own}
	r := NewRunner(p, Probe(exe, p))
	env := []string{"PATH=" + filepath.Dir(gobin) + ":" + os.Getenv("PATH"), "HOME=" + home, "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOCACHE=" + filepath.Join(userCache, "go-build")}
	if v := os.Getenv("GOROOT"); v != "" {
		env = append(env, "GOROOT="+v)
	}
	for _, tt := range []struct{ name, script, planted string }{
		{"user cache", `echo x > ~/.cache/planted`, filepath.Join(userCache, "planted")},
		{"zsh instant prompt", `mkdir -p ~/.cache/zsh && echo x > ~/.cache/zsh/p10k-instant-prompt-u.zsh`, filepath.Join(userCache, "zsh")},
		{"user GOCACHE", `mkdir -p ~/.cache/go-build/00 && echo x > ~/.cache/go-build/00/planted`, filepath.Join(userCache, "go-build")},
	} {
		if out, code := runIn(t, r, "", tt.script, env...); code == 0 {
			t.Errorf("%s: a write into the user's cache worked:\n%s", tt.name, out)
		}
		if _, err := os.Lstat(tt.planted); err == nil {
			t.Errorf("%s: %s was written", tt.name, tt.planted)
		}
	}
	out, code := runIn(t, r, "", `echo ok > "$XDG_CACHE_HOME/written" && go build ./... && go env GOCACHE`, env...)
	if code != 0 {
		t.Fatalf("a write into the commands' cache or go build failed (exit %d):\n%s", code, out)
	}
	if b, err := os.ReadFile(filepath.Join(own, "written")); err != nil || string(b) != "ok\n" {
		t.Errorf("the write into the commands' cache directory did not land: %q, %v", b, err)
	}
	if got := strings.TrimSpace(out); got != filepath.Join(own, "go-build") {
		t.Errorf("GOCACHE inside is %q, want %s", got, filepath.Join(own, "go-build"))
	}
	if ents, err := os.ReadDir(filepath.Join(own, "go-build")); err != nil || len(ents) == 0 {
		t.Errorf("go build left nothing in the commands' cache: %v", err)
	}
}
