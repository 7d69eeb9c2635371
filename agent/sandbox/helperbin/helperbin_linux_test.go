package helperbin

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/internal/proctest"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/agent/sandbox/helperbin/internal/digest"
)

// TestImageIsCurrent fails when the sandbox's code (or anything else the
// helper is built from) changed since the images were made: run `go
// generate ./agent/sandbox/helperbin/`.
func TestImageIsCurrent(t *testing.T) {
	sum, err := digest.Sources(".")
	if err != nil {
		t.Fatal(err)
	}
	if sum != imageSources {
		t.Fatalf("the helper images were built from other sources (digest %s, now %s): run go generate ./agent/sandbox/helperbin/", imageSources, sum)
	}
}

// loaded returns a runner in mode whose helper is the loaded image, for a
// fresh workspace, and the workspace.
func loaded(t *testing.T, mode sandbox.Mode, hidden ...string) (*sandbox.Runner, string) {
	t.Helper()
	path, err := Load()
	if err != nil {
		t.Fatalf("load the helper: %v", err)
	}
	ws := t.TempDir()
	p := sandbox.Policy{Mode: mode, Workspace: ws, TempDir: t.TempDir(), CacheDir: t.TempDir(), Hidden: hidden}
	s := sandbox.Probe(path, p)
	if !s.Confines() || !s.Seccomp || !s.Namespaces {
		t.Fatalf("the loaded helper should give the whole sandbox on this machine:\n%s", s.Report(p))
	}
	return sandbox.NewRunner(p, s), ws
}

// run runs script through r in its mode and returns its output and exit
// code.
func run(t *testing.T, r *sandbox.Runner, script string) (string, int) {
	t.Helper()
	return proctest.Run(t, r.Command("", script, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}), script)
}

// TestLoadedHelperConfines runs commands through the loaded helper that
// try what the sandbox forbids: each must fail as it does with `tick
// __sandbox` (the sandbox package's escape tests, run with the test
// binary as the helper, cover the rest of the same code).
func TestLoadedHelperConfines(t *testing.T) {
	secret := t.TempDir()
	if err := os.WriteFile(filepath.Join(secret, "key"), []byte("SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	r, ws := loaded(t, sandbox.WorkspaceWrite, secret)
	if err := os.Mkdir(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code := run(t, r, `echo made > inside && cat inside`); code != 0 || out != "made\n" {
		t.Fatalf("a write in the workspace failed: exit %d:\n%s", code, out)
	}
	for _, tc := range []struct{ name, script, evidence string }{
		{"write outside the workspace", `echo x > ` + outside + `/escaped`, filepath.Join(outside, "escaped")},
		{"plant a git hook", `mkdir -p .git/hooks && echo x > .git/hooks/pre-commit`, filepath.Join(ws, ".git/hooks/pre-commit")},
	} {
		if out, code := run(t, r, tc.script); code == 0 {
			t.Errorf("%s: exit 0:\n%s", tc.name, out)
		}
		if _, err := os.Stat(tc.evidence); err == nil {
			t.Errorf("%s: %s exists", tc.name, tc.evidence)
		}
	}
	if out, _ := run(t, r, `cat `+secret+`/key`); strings.Contains(out, "SECRET") {
		t.Errorf("a hidden file was read:\n%s", out)
	}
	if out, code := run(t, r, `exec 3<>/dev/tcp/127.0.0.1/`+port+` && echo CONNECTED`); code == 0 || strings.Contains(out, "CONNECTED") {
		t.Errorf("a connection to the host's loopback got through: exit %d:\n%s", code, out)
	}
}

// TestLoadedHelperForTaskCopy: a parallel task's runner (ForWorkspace)
// runs its commands through the same loaded helper, confined to its copy.
func TestLoadedHelperForTaskCopy(t *testing.T) {
	r, ws := loaded(t, sandbox.WorkspaceWrite)
	copyDir := t.TempDir()
	tr := r.ForWorkspace(copyDir)
	if out, code := run(t, tr, `echo task > made`); code != 0 {
		t.Fatalf("a write in the task's copy failed: exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(copyDir, "made")); err != nil {
		t.Errorf("the task's write is not in its copy: %v", err)
	}
	if out, code := run(t, tr, `echo x > `+ws+`/escaped`); code == 0 {
		t.Errorf("the task's command wrote into the workspace it was not given: exit 0:\n%s", out)
	}
}

// TestLoadedHelperKillsLeftovers: what a command leaves running, however
// it detached, is gone when the call ends, confined or not (without
// namespaces the helper reaps as a subreaper).
func TestLoadedHelperKillsLeftovers(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.WorkspaceWrite, sandbox.FullAccess} {
		t.Run(string(mode), func(t *testing.T) {
			r, ws := loaded(t, mode)
			marker := "tick-helperbin-leftover-" + filepath.Base(filepath.Dir(ws))
			sleeper := `bash -c 'exec -a ` + marker + ` sleep 300'`
			if out, code := run(t, r, sleeper+` & setsid `+sleeper+` & nohup `+sleeper+` >/dev/null 2>&1 & echo started`); code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			if pids := proctest.Named(t, marker); len(pids) > 0 {
				t.Errorf("processes left behind after the call: %v", pids)
			}
		})
	}
}

// TestLoadedHelperIsSealed: the memory file the helper runs from cannot
// be changed, through its path or otherwise, once Load returned.
func TestLoadedHelperIsSealed(t *testing.T) {
	path, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
		_, werr := f.Write([]byte("#!/bin/sh\necho replaced\n"))
		terr := f.Truncate(10)
		f.Close()
		if werr == nil || terr == nil {
			t.Errorf("the helper's memory file took a write (%v) or a truncation (%v)", werr, terr)
		}
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the helper's memory file changed")
	}
	if err := check(path); err != nil {
		t.Errorf("the helper no longer runs: %v", err)
	}
}

// BenchmarkLoad measures Load: unpacking the image into a memory file and
// its trial run, once per tick process, in the background.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := Load(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLoadedHelperSpares: the loaded helper also waits as the runner's
// spare (the command's parent is `__sandbox --spare` from the memory
// file) and confines the command it is handed as one started for it
// does; with the spare closed, commands start a helper of their own.
func TestLoadedHelperSpares(t *testing.T) {
	for _, spare := range []bool{true, false} {
		r, _ := loaded(t, sandbox.WorkspaceWrite)
		if !spare {
			r.Close()
		} else {
			t.Cleanup(r.Close)
		}
		outside := t.TempDir()
		for i := 0; i < 2; i++ {
			out, code := run(t, r, `tr '\0' ' ' < /proc/$PPID/cmdline; echo; echo x > `+outside+`/escaped`)
			if code == 0 {
				t.Errorf("spare %v: a write outside the workspace: exit 0:\n%s", spare, out)
			}
			if got := strings.Contains(out, " __sandbox --spare "); got != spare || !strings.HasPrefix(out, "/proc/self/fd/") {
				t.Errorf("spare %v: the command's parent:\n%s", spare, out)
			}
		}
		if _, err := os.Stat(filepath.Join(outside, "escaped")); err == nil {
			t.Errorf("spare %v: the write outside the workspace landed", spare)
		}
	}
}
