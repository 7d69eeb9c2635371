package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent/internal/proctest"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperArg {
		os.Exit(Main(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == forkBombArg {
		os.Exit(forkBomb())
	}
	if len(os.Args) > 1 && os.Args[1] == escapeArg {
		os.Exit(escape(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// testRunner returns a runner for a fresh workspace with the test binary
// as the helper, and the workspace.
func testRunner(t testing.TB, mode Mode) (*Runner, string) {
	t.Helper()
	ws := t.TempDir()
	exe := helperFor(t)
	p := Policy{Mode: mode, Workspace: ws, TempDir: t.TempDir(), CacheDir: t.TempDir()}
	s := Probe(exe, p)
	if !s.Confines() || !s.Seccomp || !s.Namespaces {
		t.Fatalf("this machine should support the whole sandbox:\n%s", s.Report(p))
	}
	r := NewRunner(p, s)
	noSpareFor(t, r)
	t.Cleanup(r.dropSpare)
	return r, ws
}

// runIn runs script under r in mode m and returns its combined output and
// exit code.
func runIn(t testing.TB, r *Runner, m Mode, script string, env ...string) (string, int) {
	t.Helper()
	return proctest.Run(t, r.Command(m, script, append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)), script)
}

func TestWorkspaceWriteAllowsWorkspaceAndTemp(t *testing.T) {
	r, ws := testRunner(t, WorkspaceWrite)
	out, code := runIn(t, r, "", `echo hi > made && mkdir -p d/e && mv made d/e/moved && echo tmp > "$TMPDIR/x" && cat "$TMPDIR/x" && echo null > /dev/null && ls d/e`)
	if code != 0 || !strings.Contains(out, "tmp\nmoved") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(ws, "d/e/moved")); err != nil {
		t.Errorf("the file written inside the sandbox is not in the workspace: %v", err)
	}
}

func TestHelperReportsExitAndSignal(t *testing.T) {
	r, _ := testRunner(t, WorkspaceWrite)
	if _, code := runIn(t, r, "", "exit 3"); code != 3 {
		t.Errorf("exit 3 gave %d", code)
	}
	// In the sandbox the helper is the PID namespace's init, the shell an
	// ordinary process that can end itself: the helper, which cannot end
	// by a signal it sends itself, says so by the shell's convention.
	if _, code := runIn(t, r, "", "kill -KILL $$"); code != 128+int(syscall.SIGKILL) {
		t.Errorf("a sandboxed shell killed by SIGKILL gave %d, want %d", code, 128+int(syscall.SIGKILL))
	}
	// Without the sandbox's namespaces it ends by the signal, as the shell did.
	cmd := r.Command(FullAccess, "kill -KILL $$", []string{"PATH=" + os.Getenv("PATH")})
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ProcessState.String() != "signal: killed" {
		t.Errorf("a shell killed by SIGKILL ended with %v, want signal: killed", err)
	}
}

// TestLeftoversAreKilled starts processes that outlive the command in
// every usual way and checks the process table once the call ended.
func TestLeftoversAreKilled(t *testing.T) {
	for _, mode := range []Mode{WorkspaceWrite, FullAccess} {
		t.Run(string(mode), func(t *testing.T) {
			r, ws := testRunner(t, mode)
			marker := "tick-leftover-" + filepath.Base(filepath.Dir(ws)) // unique: t.TempDir's random parent
			script := `sleep 300 & nohup sleep 300 >/dev/null 2>&1 & setsid sleep 300 & (setsid bash -c 'sleep 300 & disown' &) ; exec -a ` + marker + ` sleep 0.1`
			script = strings.ReplaceAll(script, "sleep 300", "bash -c 'exec -a "+marker+" sleep 300'")
			start := time.Now()
			if out, code := runIn(t, r, "", script); code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("the call took %v: it waited for its leftovers", d)
			}
			if pids := proctest.Named(t, marker); len(pids) > 0 {
				t.Errorf("processes left behind after the call: %v", pids)
			}
		})
	}
}

func TestReadOnlyWritesOnlyTemp(t *testing.T) {
	r, ws := testRunner(t, ReadOnly)
	if out, code := runIn(t, r, "", `echo x > "$TMPDIR/ok" && cat "$TMPDIR/ok" && ls`); code != 0 {
		t.Errorf("read-only: the private TMPDIR is not writable (exit %d):\n%s", code, out)
	}
	if out, code := runIn(t, r, "", "echo x > made"); code == 0 {
		t.Errorf("read-only: a write in the workspace worked:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(ws, "made")); err == nil {
		t.Error("read-only: the file exists in the workspace")
	}
}

// BenchmarkCommand measures what one command costs with the sandbox
// helper (namespaces, Landlock, seccomp, reaping) against plain bash: in
// a helper started for it ("own") and in the runner's spare helper
// ("spare", which starts in the pause between commands, left out of the
// time as a model's answer would be). With TICK_HELPER naming a built
// tick, it measures that binary as the helper too, package
// initialisation included (`go build -o /tmp/tick . &&
// TICK_HELPER=/tmp/tick go test -run XXX -bench BenchmarkCommand
// ./agent/sandbox/`).
func BenchmarkCommand(b *testing.B) {
	r, _ := testRunner(b, WorkspaceWrite)
	p := r.Policy()
	type bench struct {
		name  string
		s     Support
		m     Mode
		spare bool
	}
	benches := []bench{{"plain-bash", Support{}, "", false}}
	helpers := map[string]Support{"helper": r.Support()}
	if tick := os.Getenv("TICK_HELPER"); tick != "" {
		s := Probe(tick, p)
		if !s.Namespaces {
			b.Fatalf("%s as the helper:\n%s", tick, s.Report(p))
		}
		helpers["tick"] = s
	}
	for name, s := range helpers {
		for _, m := range []Mode{FullAccess, WorkspaceWrite} {
			for _, spare := range []bool{false, true} {
				where := "own"
				if spare {
					where = "spare"
				}
				benches = append(benches, bench{name + "-" + string(m) + "-" + where, s, m, spare})
			}
		}
	}
	env := []string{"PATH=" + os.Getenv("PATH")}
	for _, bm := range benches {
		b.Run(bm.name, func(b *testing.B) {
			pm := p
			pm.Mode = bm.m
			r := NewRunner(pm, bm.s)
			defer r.Close()
			if !bm.spare {
				r.dropSpare()
			}
			var child time.Duration
			self := selfCPU()
			for i := 0; i < b.N; i++ {
				cmd := r.Command("", "true", env)
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				child += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				r.GitChanges()
				if bm.spare {
					b.StopTimer()
					time.Sleep(5 * time.Millisecond) // the model answers
					b.StartTimer()
				}
			}
			b.ReportMetric(float64(selfCPU()-self)/float64(time.Millisecond)/float64(b.N), "tick-cpu-ms/op")
			b.ReportMetric(float64(child)/float64(time.Millisecond)/float64(b.N), "child-cpu-ms/op")
		})
	}
}

// selfCPU is the CPU time (user and system) this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
