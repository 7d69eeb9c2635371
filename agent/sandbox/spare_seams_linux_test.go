package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestSpareKeepsTheBytes: a command handed to a spare helper gets its
// environment and arguments byte for byte, as execve gives a helper
// started for it: a value that is not UTF-8 (a path in Latin-1 in the
// user's environment) is not rewritten on the way.
func TestSpareKeepsTheBytes(t *testing.T) {
	for _, mode := range []Mode{WorkspaceWrite, FullAccess} {
		for _, how := range []string{"spare", ownHelper} {
			t.Run(string(mode)+"/"+how, func(t *testing.T) {
				r, _ := testRunner(t, mode)
				value := "caf\xe9-\xff\xfe-\xed\xa0\x80"
				cmd := r.Command("", `printf '%s|%s' "$TICK_BYTES" "$1" | od -An -tx1 | tr -d ' \n'`,
					[]string{"PATH=" + os.Getenv("PATH"), "TICK_BYTES=" + value})
				cmd.Args = append(cmd.Args, "bash", value)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("the command: %v\n%s", err, out)
				}
				if inSpare := cmd.spare != nil; inSpare != (how == "spare") {
					t.Errorf("the command ran in a spare: %v", inSpare)
				}
				if want := fmt.Sprintf("%x", value+"|"+value); string(out) != want {
					t.Errorf("the command got the bytes %s, want %s", out, want)
				}
			})
		}
	}
}

// TestSpareSignalledWhileIdle: a spare helper that gets a signal that
// ends a command (SIGTERM, SIGINT, SIGHUP: someone's kill, a logout)
// while it waits for its command ends then; the next command starts a
// helper of its own and runs, rather than being reported ended by a
// signal it never got.
func TestSpareSignalledWhileIdle(t *testing.T) {
	// One runner per case costs a second or two under -race: the three
	// signals share one path, so each mode takes some of them.
	for _, tc := range []struct {
		mode Mode
		sigs []syscall.Signal
	}{{WorkspaceWrite, []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP}}, {FullAccess, []syscall.Signal{syscall.SIGINT}}} {
		mode := tc.mode
		for _, sig := range tc.sigs {
			t.Run(string(mode)+"/"+sig.String(), func(t *testing.T) {
				r, _ := testRunner(t, mode)
				s := spareReady(t, r)
				waitIdle(t, s)
				if err := s.cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				if !hangsUp(t, s) {
					t.Error("the spare helper outlived the signal")
				}
				cmd := r.Command("", "echo ran", []string{"PATH=" + os.Getenv("PATH")})
				out, err := cmd.CombinedOutput()
				if err != nil || string(out) != "ran\n" {
					t.Errorf("the next command: %v %q", err, out)
				}
				if cmd.spare == s {
					t.Error("the next command was handed to the signalled spare")
				}
			})
		}
	}
}

// waitIdle returns once spare helper s waits for its command: its main
// thread blocked on its socket in recvmsg or ppoll, as /proc tells. Where
// that cannot be read (a spare without namespaces is not dumpable, to a
// user without CAP_SYS_PTRACE) it returns at once: such a spare ends at
// a signal whenever it comes, by the runtime's default before it waits.
func waitIdle(t *testing.T, s *spare) {
	t.Helper()
	name := "/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/syscall"
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		b, err := os.ReadFile(name)
		if err != nil {
			return
		}
		f := strings.Fields(string(b))
		if len(f) > 0 && (f[0] == strconv.Itoa(unix.SYS_RECVMSG) || f[0] == strconv.Itoa(unix.SYS_PPOLL)) {
			return
		}
	}
	t.Fatal("the spare helper never waited for its command")
}

// hangsUp reports whether spare helper s hangs up its socket (it ended)
// within 30 seconds.
func hangsUp(t *testing.T, s *spare) bool {
	rc, err := s.sock.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	up := false
	if err := rc.Control(func(fd uintptr) {
		p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLRDHUP}}
		n, _ := unix.Poll(p, 30000)
		up = n > 0
	}); err != nil {
		t.Fatal(err)
	}
	return up
}

// TestSpareTakesARelativeDir: a command whose Dir is relative (as
// exec.Cmd takes it: to tick's working directory) runs there in a spare
// helper too, not under the root, the spare's own directory.
func TestSpareTakesARelativeDir(t *testing.T) {
	for _, mode := range []Mode{WorkspaceWrite, FullAccess} {
		for _, how := range []string{"spare", ownHelper} {
			t.Run(string(mode)+"/"+how, func(t *testing.T) {
				r, ws := testRunner(t, mode)
				t.Chdir(filepath.Dir(ws))
				rel := filepath.Base(ws)
				cmd := r.Command("", "pwd", []string{"PATH=" + os.Getenv("PATH")})
				cmd.Dir = rel
				out, err := cmd.CombinedOutput()
				if err != nil || string(out) != ws+"\n" {
					t.Errorf("the command in %s ran in %q (%v), want %s", rel, out, err, ws)
				}
				if inSpare := cmd.spare != nil; inSpare != (how == "spare") {
					t.Errorf("the command ran in a spare: %v", inSpare)
				}
			})
		}
	}
}

// mountsChildEnv marks the run of the test binary that
// TestSpareSeesTheMountsOfTheMoment starts in mount and user namespaces of
// its own, where it may mount as tick's side of the test.
const mountsChildEnv = "TICK_TEST_SPARE_MOUNTS_CHILD"

// TestSpareSeesTheMountsOfTheMoment: a command handed to a spare helper
// sees the mounts of the moment it runs, as a helper started for it
// does, not those of when the spare started: a file system the user
// mounted in the workspace since is there, one unmounted since is gone
// (where mounts do not propagate, as in most containers, nothing else
// tells the spare, which would also keep it busy). The test
// runs tick's side in a user and mount namespace of its own, with private
// mounts, where it may mount a tmpfs.
func TestSpareSeesTheMountsOfTheMoment(t *testing.T) {
	if os.Getenv(mountsChildEnv) != "" {
		spareMountsChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSpareSeesTheMountsOfTheMoment$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), mountsChildEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestSpareSeesTheMountsOfTheMoment") {
		t.Fatalf("tick's side in its namespaces: %v\n%s", err, out)
	}
}

// spareMountsChild is tick's side of TestSpareSeesTheMountsOfTheMoment.
func spareMountsChild(t *testing.T) {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		t.Fatalf("make the mounts private: %v", err)
	}
	for _, mode := range []Mode{WorkspaceWrite, FullAccess} {
		for _, how := range []string{"spare", ownHelper} {
			t.Run(string(mode)+"/"+how, func(t *testing.T) {
				r, ws := testRunner(t, mode)
				gone := filepath.Join(ws, "gone")
				if err := os.Mkdir(gone, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := unix.Mount("tmpfs", gone, "tmpfs", 0, "size=1m"); err != nil {
					t.Fatalf("mount a tmpfs: %v", err)
				}
				if err := os.WriteFile(filepath.Join(gone, "stale"), []byte("unmounted\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				// The spare the next command takes starts as this one starts.
				if out, code := runIn(t, r, "", "true"); code != 0 {
					t.Fatalf("a first command: exit %d\n%s", code, out)
				}
				if how == "spare" {
					waitIdle(t, spareReady(t, r))
				}
				if err := unix.Unmount(gone, 0); err != nil {
					t.Fatalf("unmount the tmpfs: %v", err)
				}
				mnt := filepath.Join(ws, "mounted")
				if err := os.Mkdir(mnt, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := unix.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
					t.Fatalf("mount a tmpfs in the workspace: %v", err)
				}
				t.Cleanup(func() { _ = unix.Unmount(mnt, unix.MNT_DETACH) })
				if err := os.WriteFile(filepath.Join(mnt, "there"), []byte("mounted\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				cmd := r.Command("", `cat mounted/there; cat gone/stale 2>/dev/null; true`, []string{"PATH=" + os.Getenv("PATH")})
				out, err := cmd.CombinedOutput()
				if err != nil || string(out) != "mounted\n" {
					t.Errorf("the command saw %q (%v), want the file on the new mount and none on the one unmounted", out, err)
				}
				if inSpare := cmd.spare != nil; inSpare != (how == "spare") {
					t.Errorf("the command ran in a spare: %v", inSpare)
				}
			})
		}
	}
}

// TestCmdOutputAsExecCmd: Cmd's Output and pipes behave as exec.Cmd's,
// which Cmd stands in for, in a spare helper and in one of its own:
// Output keeps what a failing command wrote on its standard error in the
// ExitError, and a pipe asked for once the command started is refused.
func TestCmdOutputAsExecCmd(t *testing.T) {
	for _, how := range []string{"spare", ownHelper} {
		t.Run(how, func(t *testing.T) {
			r, _ := testRunner(t, WorkspaceWrite)
			cmd := r.Command("", "echo out; echo oops >&2; exit 3", []string{"PATH=" + os.Getenv("PATH")})
			out, err := cmd.Output()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || string(out) != "out\n" || string(ee.Stderr) != "oops\n" {
				t.Errorf("Output: %q, %v (stderr %q), want out, exit status 3 and oops", out, err, stderrOf(ee))
			}
			if inSpare := cmd.spare != nil; inSpare != (how == "spare") {
				t.Errorf("the command ran in a spare: %v", inSpare)
			}
			cmd = r.Command("", "true", []string{"PATH=" + os.Getenv("PATH")})
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for name, pipe := range map[string]func() error{
				"StdinPipe":  func() error { _, err := cmd.StdinPipe(); return err },
				"StdoutPipe": func() error { _, err := cmd.StdoutPipe(); return err },
				"StderrPipe": func() error { _, err := cmd.StderrPipe(); return err },
			} {
				if pipe() == nil {
					t.Errorf("%s after Start was not refused", name)
				}
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("the command: %v", err)
			}
		})
	}
}

// stderrOf is ee's Stderr, nil without an ExitError.
func stderrOf(ee *exec.ExitError) []byte {
	if ee == nil {
		return nil
	}
	return ee.Stderr
}
