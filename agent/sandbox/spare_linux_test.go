package sandbox

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent/internal/proctest"
)

// ownHelper in a test's name makes testRunner and runnerFor give runners
// without a spare helper: every command starts a helper of its own.
const ownHelper = "own-helper"

// noSpareFor drops r's spare helper when t runs the tests again with
// helpers of their own (TestInAHelperOfItsOwn).
func noSpareFor(t testing.TB, r *Runner) {
	if strings.Contains(t.Name(), "/"+ownHelper) {
		r.dropSpare()
	}
}

// TestInAHelperOfItsOwn runs the sandbox's escape tests again with every
// command in a helper started for it, the way a command goes when the
// runner has no spare of its kind (the first one of a session, one in
// another mode, one running beside another); the tests themselves run
// their commands in spare helpers. Left out are those about what tick's
// side hands either helper alike (the .git report, hidden paths, the
// repository's extraheader, the plain file rules) and about the PID and
// network namespaces, which both get from the same clone flags: they
// cost the most.
func TestInAHelperOfItsOwn(t *testing.T) {
	for _, tt := range []struct {
		name string
		test func(*testing.T)
	}{
		{"Escapes", TestEscapes},
		{"ForeignArchitectureKilled", TestForeignArchitectureKilled},
		{"InheritedDescriptorsClosed", TestInheritedDescriptorsClosed},
		{"HelperReportsExitAndSignal", TestHelperReportsExitAndSignal},
		{"LeftoversAreKilled", TestLeftoversAreKilled},
		{"OtherProcessesOutOfSight", TestOtherProcessesOutOfSight},
		{"TerminalOutOfReach", TestTerminalOutOfReach},
		{"KilledHelperEndsTheCommand", TestKilledHelperEndsTheCommand},
		{"HelperOutOfReach", TestHelperOutOfReach},
		{"NestedGitMetaReadOnly", TestNestedGitMetaReadOnly},
		{"ProtectedPathsAreReadOnly", TestProtectedPathsAreReadOnly},
	} {
		t.Run(tt.name+"/"+ownHelper, tt.test)
	}
}

// spareReady returns r's spare helper once it has started, failing t when
// r has none.
func spareReady(t *testing.T, r *Runner) *spare {
	t.Helper()
	r.sparemu.Lock()
	s := r.spare
	r.sparemu.Unlock()
	if s == nil {
		t.Fatal("the runner has no spare helper")
	}
	<-s.ready
	if s.err != nil {
		t.Fatalf("the spare helper did not start: %v", s.err)
	}
	return s
}

// TestSpareRunsTheCommand: a command handed to the spare helper gets its
// environment (and none of the spare's own), directory and standard streams in every form exec.Cmd
// takes, and its exit status, in both kinds of spare.
func TestSpareRunsTheCommand(t *testing.T) {
	for _, mode := range []Mode{WorkspaceWrite, FullAccess} {
		t.Run(string(mode), func(t *testing.T) {
			r, ws := testRunner(t, mode)
			env := []string{"PATH=" + os.Getenv("PATH"), "TICK_SPARE_TEST=the-value"}
			script := `echo "out:$TICK_SPARE_TEST:${GOMAXPROCS-unset}:$(pwd)"; read -r line; echo "in:$line"; echo err >&2; exit 3`
			check := func(t *testing.T, cmd *Cmd, err error, out, errOut string) {
				t.Helper()
				if cmd.spare == nil {
					t.Error("the command did not run in the spare helper")
				}
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != 3 {
					t.Errorf("exit: %v, want exit status 3", err)
				}
				if want := "out:the-value:unset:" + ws + "\nin:the input\n"; !strings.Contains(out, want) {
					t.Errorf("stdout %q, want %q", out, want)
				}
				if !strings.Contains(errOut, "err\n") {
					t.Errorf("stderr %q, want err", errOut)
				}
			}
			t.Run("buffers", func(t *testing.T) {
				spareReady(t, r)
				cmd := r.Command("", script, env)
				var out, errOut bytes.Buffer
				cmd.Stdin = strings.NewReader("the input\n")
				cmd.Stdout, cmd.Stderr = &out, &errOut
				err := cmd.Run()
				check(t, cmd, err, out.String(), errOut.String())
			})
			t.Run("one buffer", func(t *testing.T) {
				spareReady(t, r)
				cmd := r.Command("", script, env)
				cmd.Stdin = strings.NewReader("the input\n")
				out, err := cmd.CombinedOutput()
				check(t, cmd, err, string(out), string(out))
			})
			t.Run("files", func(t *testing.T) {
				spareReady(t, r)
				in, out, errOut := filepath.Join(t.TempDir(), "in"), filepath.Join(t.TempDir(), "out"), filepath.Join(t.TempDir(), "err")
				if err := os.WriteFile(in, []byte("the input\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				fi, _ := os.Open(in)
				fo, _ := os.Create(out)
				fe, _ := os.Create(errOut)
				defer fi.Close()
				defer fo.Close()
				defer fe.Close()
				cmd := r.Command("", script, env)
				cmd.Stdin, cmd.Stdout, cmd.Stderr = fi, fo, fe
				err := cmd.Run()
				o, _ := os.ReadFile(out)
				e, _ := os.ReadFile(errOut)
				check(t, cmd, err, string(o), string(e))
			})
			t.Run("pipes", func(t *testing.T) {
				spareReady(t, r)
				cmd := r.Command("", script, env)
				stdin, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				stdout, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				stderr, err := cmd.StderrPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				_, _ = io.WriteString(stdin, "the input\n")
				stdin.Close()
				o, _ := io.ReadAll(stdout)
				e, _ := io.ReadAll(stderr)
				check(t, cmd, cmd.Wait(), string(o), string(e))
			})
		})
	}
}

// TestSpareAfterAnotherMode (the seam of an approved command in another
// mode and the spare): a command in another mode than the policy's does
// not take the spare, which stays for the next command in the policy's
// mode: the unconfined one writes outside the workspace, the next one
// cannot.
func TestSpareAfterAnotherMode(t *testing.T) {
	r, _ := testRunner(t, WorkspaceWrite)
	outside := filepath.Join(t.TempDir(), "outside")
	s := spareReady(t, r)
	cmd := r.Command(FullAccess, `echo free > "$1"`, []string{"PATH=" + os.Getenv("PATH")})
	cmd.Args = append(cmd.Args, "bash", outside)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the unconfined command failed: %v\n%s", err, out)
	}
	if cmd.spare != nil {
		t.Error("the unconfined command ran in the confined spare")
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "free\n" {
		t.Fatalf("the unconfined command's write: %q, %v", b, err)
	}
	if spareReady(t, r) != s {
		t.Error("the spare was replaced by a command of another mode")
	}
	confined := r.Command("", `echo caught > "$1"`, []string{"PATH=" + os.Getenv("PATH")})
	confined.Args = append(confined.Args, "bash", outside)
	out, err := confined.CombinedOutput()
	if err == nil || confined.spare != s {
		t.Errorf("the next command: spare %v (want the one waiting), err %v\n%s", confined.spare != nil, err, out)
	}
	if b, _ := os.ReadFile(outside); string(b) != "free\n" {
		t.Errorf("a confined command wrote outside the workspace: %q", b)
	}
}

// TestSpareTakesTheMomentsGitMeta (the seam of the git guard and the
// spare): a spare helper started before the user made a nested
// repository and a hooks directory the config names still gets them
// read-only, since the .git entries and protected paths come with the
// command; what it plants is reported.
func TestSpareTakesTheMomentsGitMeta(t *testing.T) {
	ws := t.TempDir()
	gitIn(t, ws, "init", "-q")
	r := runnerFor(t, ws, func(p *Policy) { p.Protect = []string{".githooks"} })
	spareReady(t, r) // before the user's changes below
	gitIn(t, ws, "init", "-q", "late")
	gitIn(t, ws, "config", "core.hooksPath", ".githooks")
	writeFiles(t, ws, map[string]string{".githooks/pre-commit": "#!/bin/sh\nexit 0\n"})
	for _, script := range []string{
		`echo evil > late/.git/hooks/pre-commit`,
		`echo '[core] fsmonitor = touch /tmp/x' >> late/.git/config`,
		`echo evil > .githooks/pre-commit`,
		`echo evil > .git/hooks/post-checkout`,
	} {
		t.Run(script, func(t *testing.T) {
			s := spareReady(t, r)
			cmd := r.Command("", script, []string{"PATH=" + os.Getenv("PATH")})
			out, err := cmd.CombinedOutput()
			if cmd.spare != s {
				t.Error("the command did not run in the spare helper")
			}
			if err == nil {
				t.Errorf("the write succeeded:\n%s", out)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".githooks/pre-commit")); string(b) != "#!/bin/sh\nexit 0\n" {
		t.Errorf("the hook was rewritten: %q", b)
	}
	for _, rel := range []string{"late/.git/hooks/pre-commit", ".git/hooks/post-checkout"} {
		if _, err := os.Stat(filepath.Join(ws, rel)); err == nil {
			t.Errorf("%s was planted", rel)
		}
	}
	spareReady(t, r)
	if out, code := runIn(t, r, "", `mkdir -p new && git init -q new`); code != 0 {
		t.Fatalf("git init in a spare: exit %d\n%s", code, out)
	}
	if rep := r.GitChanges(); len(rep.Planted) != 1 || rep.Planted[0] != "new/.git" {
		t.Errorf("report of a repository made in a spare: %+v", rep)
	}
}

// TestSpareGoneRunsInItsOwn: when the spare helper is gone (killed by
// someone), the command starts a helper of its own and runs.
func TestSpareGoneRunsInItsOwn(t *testing.T) {
	r, _ := testRunner(t, WorkspaceWrite)
	s := spareReady(t, r)
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = s.cmd.Wait() // reaped, so its socket has hung up
	cmd := r.Command("", "echo ran", []string{"PATH=" + os.Getenv("PATH")})
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "ran\n" {
		t.Fatalf("the command: %v %q", err, out)
	}
	if cmd.spare != nil {
		t.Error("the command ran in the dead spare")
	}
}

// TestStopInSpare: Stop ends a command running in a spare helper and
// everything it started, as it does one in a helper of its own.
func TestStopInSpare(t *testing.T) {
	for _, mode := range []Mode{WorkspaceWrite, FullAccess} {
		t.Run(string(mode), func(t *testing.T) {
			r, ws := testRunner(t, mode)
			marker := "tick-spare-stop-" + filepath.Base(filepath.Dir(ws))
			s := spareReady(t, r)
			cmd := r.Command("", `setsid bash -c 'exec -a `+marker+` sleep 300' & exec -a `+marker+` sleep 300`, []string{"PATH=" + os.Getenv("PATH")})
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if cmd.spare != s {
				t.Fatal("the command did not run in the spare helper")
			}
			deadline := time.Now().Add(30 * time.Second)
			for len(proctest.Named(t, marker)) < 2 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			done := make(chan struct{})
			var err error
			go func() { err = cmd.Wait(); close(done) }()
			Stop(cmd, done)
			<-done
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Errorf("a stopped command ended with %v", err)
			}
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && !ws.Signaled() && ws.ExitStatus() != 128+int(syscall.SIGTERM) {
				t.Errorf("a stopped command's status: %v", ee)
			}
			if pids := proctest.Named(t, marker); len(pids) > 0 {
				t.Errorf("processes outlived Stop: %v", pids)
			}
		})
	}
}

// TestTaskCopiesTakeTheirOwnSpares (the seam of parallel tasks and the
// spare helpers): each task's runner for its copy of the workspace has a
// spare of its own; commands of two tasks running at once each take
// their own, write in their own copy only, and leave the workspace's
// runner its spare.
func TestTaskCopiesTakeTheirOwnSpares(t *testing.T) {
	r, _ := testRunner(t, WorkspaceWrite)
	main := spareReady(t, r)
	copies := []string{t.TempDir(), t.TempDir()}
	runners := make([]*Runner, len(copies))
	for i, c := range copies {
		runners[i] = r.ForWorkspace(c)
		t.Cleanup(runners[i].Close)
	}
	type result struct {
		out   string
		err   error
		spare bool
	}
	results := make([]result, len(copies))
	spares := []*spare{spareReady(t, runners[0]), spareReady(t, runners[1])}
	done := make(chan int)
	for i := range copies {
		go func() {
			s := spares[i]
			other := copies[1-i]
			cmd := runners[i].Command("", `pwd; echo mine > own.txt; echo theirs > "$1/theirs.txt"`, []string{"PATH=" + os.Getenv("PATH")})
			cmd.Args = append(cmd.Args, "bash", other)
			out, err := cmd.CombinedOutput()
			results[i] = result{string(out), err, cmd.spare == s}
			done <- i
		}()
	}
	for range copies {
		<-done
	}
	for i, c := range copies {
		res := results[i]
		if !res.spare {
			t.Errorf("task %d's command did not run in its runner's spare", i+1)
		}
		if !strings.HasPrefix(res.out, c+"\n") {
			t.Errorf("task %d ran in %q, want its copy %s", i+1, res.out, c)
		}
		if b, err := os.ReadFile(filepath.Join(c, "own.txt")); err != nil || string(b) != "mine\n" {
			t.Errorf("task %d's write in its own copy: %q, %v", i+1, b, err)
		}
		if _, err := os.Stat(filepath.Join(c, "theirs.txt")); err == nil {
			t.Errorf("the other task wrote into task %d's copy", i+1)
		}
	}
	if spareReady(t, r) != main {
		t.Error("a task's command took the workspace runner's spare")
	}
}

// TestSpareAfterTheWorkspaceWasReplaced (the seam of rewind and the
// spare): a spare started before the workspace's directory was removed
// and made again (as restoring a deleted directory does) runs the next
// command in the directory as it is now.
func TestSpareAfterTheWorkspaceWasReplaced(t *testing.T) {
	r, ws := testRunner(t, WorkspaceWrite)
	s := spareReady(t, r)
	if err := os.RemoveAll(ws); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "restored.txt"), []byte("back\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := r.Command("", `cat restored.txt && echo new > made.txt`, []string{"PATH=" + os.Getenv("PATH")})
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "back\n" || cmd.spare != s {
		t.Fatalf("the command in the spare: %v %q (in the spare: %v)", err, out, cmd.spare == s)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "made.txt")); err != nil || string(b) != "new\n" {
		t.Errorf("the write in the new workspace directory: %q, %v", b, err)
	}
}
