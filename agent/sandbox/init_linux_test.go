package sandbox

import (
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

	"github.com/tick-agent/tick/agent/internal/proctest"
)

// forkBombArg makes the test binary start `sleep 60` children as fast as
// it can, up to forkBombMax, until forkBombRefused forks failed, or for
// forkBombFor, then print how many it started and how many forks failed
// (see forkBomb). The bound is met long before forkBombFor on a quiet
// machine; the long window is for a loaded one, which forks slowly.
const forkBombArg = "__forkbomb"

const (
	forkBombMax     = 3 * maxPIDs
	forkBombRefused = 20
	forkBombFor     = 50 * time.Second
)

// forkBomb is a fork bomb that stops itself: it does not wait for its
// children while it forks, so they pile up until the bound refuses more;
// then it kills and reaps them, and reports.
func forkBomb() int {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		fmt.Println(err)
		return 2
	}
	started, failed := 0, 0
	var pids []int
	for end := time.Now().Add(forkBombFor); started < forkBombMax && failed < forkBombRefused && time.Now().Before(end); {
		pid, err := syscall.ForkExec(sleep, []string{"sleep", "60"}, &syscall.ProcAttr{})
		if err != nil {
			failed++
			time.Sleep(time.Millisecond)
			continue
		}
		started++
		pids = append(pids, pid)
	}
	// Give the processes back before reporting: at the bound this
	// process's own runtime cannot start a thread either, and it did
	// start one at exit (the report printed, then "failed to create new
	// OS thread", exit 2: seen in CI under the small helper).
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	for _, pid := range pids {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	}
	fmt.Printf("started %d failed %d\n", started, failed)
	return 0
}

// TestForkBombHeld runs a fork bomb in the sandbox: it is held to the
// bound the probe reports, and the machine keeps its processes.
func TestForkBombHeld(t *testing.T) {
	r, ws := testRunner(t, WorkspaceWrite)
	if r.Support().ProcessLimit == "" {
		t.Fatalf("no process bound on this machine:\n%s", r.Support().Report(r.Policy()))
	}
	esc := copyTestBinary(t, ws)
	out, code := runIn(t, r, "", esc+" "+forkBombArg)
	var started, failed int
	if _, err := fmt.Sscanf(out, "started %d failed %d", &started, &failed); err != nil || code != 0 {
		t.Fatalf("the fork bomb did not report (exit %d): %v\n%s", code, err, out)
	}
	t.Logf("the fork bomb started %d processes; %d forks were refused (%s)", started, failed, r.Support().ProcessLimit)
	if started >= maxPIDs || failed == 0 {
		t.Errorf("the fork bomb started %d processes (bound %d), %d forks refused", started, maxPIDs-1, failed)
	}
}

// TestOtherProcessesOutOfSight starts a process outside with a secret in
// its command line: a sandboxed command reading every /proc/*/cmdline
// does not see it, but sees itself.
func TestOtherProcessesOutOfSight(t *testing.T) {
	r, ws := testRunner(t, WorkspaceWrite)
	marker := "--db-password=argvsecret-" + filepath.Base(filepath.Dir(ws))
	outside := exec.Command("bash", "-c", `exec -a "sleep $1" sleep 300`, "bash", marker)
	if err := outside.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = outside.Process.Kill(); _ = outside.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for len(proctest.Named(t, "sleep "+marker)) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(proctest.Named(t, "sleep "+marker)) == 0 {
		t.Fatal("the process outside does not show its secret in /proc")
	}
	out, _ := runIn(t, r, "", `for f in /proc/[0-9]*/cmdline; do tr '\0' ' ' < "$f"; echo; done`)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "argvsecret") {
			t.Errorf("a sandboxed command read another process's command line: %q", line)
		}
	}
	if !strings.Contains(out, "tr ") {
		t.Errorf("the sandbox's /proc does not show the command's own processes (%d bytes read)", len(out))
	}
}

// TestTerminalOutOfReach opens a terminal as the user's would be open
// (a pty whose other end the test holds) and lets a sandboxed command
// try to open it, every /dev/pts entry and /dev/tty: each one fails.
func TestTerminalOutOfReach(t *testing.T) {
	r, _ := testRunner(t, WorkspaceWrite)
	master, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(master) })
	if err := unix.IoctlSetPointerInt(master, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(master, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts := "/dev/pts/" + strconv.Itoa(n)
	if f, err := os.Open(pts); err != nil {
		t.Fatalf("the terminal cannot be opened outside the sandbox: %v", err)
	} else {
		f.Close()
	}
	if _, err := unix.Write(master, []byte("hunter2\n")); err != nil {
		t.Fatal(err)
	}
	script := `for f in /dev/pts/* /dev/tty ` + pts + `; do
	case $f in */ptmx) continue;; esac
	if (exec 3<"$f") 2>/dev/null; then echo "OPENED $f"; fi
done
echo checked`
	out, code := runIn(t, r, "", script)
	if code != 0 || !strings.Contains(out, "checked") {
		t.Fatalf("the script failed (exit %d):\n%s", code, out)
	}
	if strings.Contains(out, "OPENED") {
		t.Errorf("a sandboxed command opened a terminal:\n%s", out)
	}
}

// TestKilledHelperEndsTheCommand kills only the helper (SIGKILL, which it
// cannot catch) while the command and a process it moved to a session of
// its own run: neither outlives it, as the helper is the init of their
// PID namespace.
func TestKilledHelperEndsTheCommand(t *testing.T) {
	r, ws := testRunner(t, WorkspaceWrite)
	marker := "tick-helper-killed-" + filepath.Base(filepath.Dir(ws)) // unique: t.TempDir's random parent
	sleeper := `bash -c 'exec -a ` + marker + ` sleep 300'`
	cmd := r.Command("", `setsid `+sleeper+` & `+sleeper+` & echo started; wait`, []string{"PATH=" + os.Getenv("PATH")})
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, pid := range proctest.Named(t, marker) {
			n, _ := strconv.Atoi(pid)
			_ = syscall.Kill(n, syscall.SIGKILL)
		}
	})
	buf := make([]byte, 64)
	if n, _ := out.Read(buf); !strings.Contains(string(buf[:n]), "started") {
		t.Fatalf("the command did not start: %q", buf[:n])
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(proctest.Named(t, marker)) < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(proctest.Named(t, marker)); n < 2 {
		t.Fatalf("%d of the command's 2 sleepers are running", n)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if pids := proctest.Named(t, marker); len(pids) > 0 {
		t.Errorf("processes outlived the killed helper: %v", pids)
	}
}

// TestHelperOutOfReach lets a sandboxed command, with and without the
// namespaces, open the memory of the helper, its parent (which it sees
// in /proc, PID 1 in its namespace): the helper's other threads are not
// confined, so the command must not get at it.
func TestHelperOutOfReach(t *testing.T) {
	r, _ := testRunner(t, WorkspaceWrite)
	s := r.Support()
	s.Namespaces = false
	for name, r := range map[string]*Runner{"namespaces": r, "no namespaces": NewRunner(r.Policy(), s)} {
		t.Run(name, func(t *testing.T) {
			out, code := runIn(t, r, "", `tr '\0' ' ' < /proc/$PPID/cmdline; echo; exec 3</proc/$PPID/mem && echo opened-$((6*7))`)
			if !strings.Contains(out, " "+HelperArg+" ") {
				t.Fatalf("the command's parent is not the helper (exit %d):\n%s", code, out)
			}
			if strings.Contains(out, "opened-42") || code == 0 {
				t.Errorf("a sandboxed command opened the helper's memory (exit %d):\n%s", code, out)
			}
		})
	}
}
