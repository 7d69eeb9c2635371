package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sysProcAttr is how the parent starts the helper: in a session of its
// own, and with ns in new user, mount and network namespaces where the
// helper keeps the user's uid and gid but holds CAP_SYS_ADMIN and
// CAP_NET_ADMIN inside them (ambient), which are dropped before bash
// starts.
func sysProcAttr(ns bool) *syscall.SysProcAttr {
	a := newSession()
	if !ns {
		return a
	}
	uid, gid := os.Getuid(), os.Getgid()
	a.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	a.GidMappingsEnableSetgroups = false
	a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN}
	return a
}

// Main is the sandbox helper: args are what followed HelperArg, a spec in
// JSON, "--", and the command to run (bash -c SCRIPT). It applies the
// spec's policy to itself, runs the command as its child with the
// inherited standard streams, environment and directory, and when the
// command ends (or on SIGTERM, SIGINT or SIGHUP) kills and reaps every
// process the command left behind. It returns the exit code to exit with:
// the command's, or 128+signal when a signal ended it; 125 when the
// sandbox could not be set up (the reason on stderr).
func Main(args []string) int {
	// Every restriction is applied to this thread and inherited by the
	// command, which is started from it.
	runtime.LockOSThread()
	if len(args) < 2 || args[1] != "--" {
		fmt.Fprintln(os.Stderr, "tick __sandbox: usage: tick __sandbox SPEC -- COMMAND...")
		return 125
	}
	var s spec
	if err := json.Unmarshal([]byte(args[0]), &s); err != nil {
		fmt.Fprintf(os.Stderr, "tick __sandbox: read the spec: %v\n", err)
		return 125
	}
	if s.Init {
		return initMain(s, args[2:])
	}
	if s.Probe {
		// The namespaces and the second stage, as a command would get
		// them; the second stage prints the process bound.
		if err := setupNamespaces(s.Policy); err != nil {
			fmt.Fprintf(os.Stderr, "%v\n", err)
			return 125
		}
		code, _ := supervise(s, []string{"true"}, nil)
		return code
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if err := apply(s); err != nil {
		fmt.Fprintf(os.Stderr, "tick: the sandbox could not be set up: %v\n", err)
		return 125
	}
	code, sig := supervise(s, args[2:], sigs)
	if sig != 0 {
		raise(sig) // end the same way, so the caller sees the signal
	}
	return code
}

// apply sets up everything the spec asks for on the calling thread; with
// namespaces, the file rules and the filter are left to the second stage
// (see initMain), which must mount its /proc before Landlock forbids it.
func apply(s spec) error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("become a subreaper: %w", err)
	}
	if s.Namespaces {
		return setupNamespaces(s.Policy)
	}
	return confine(s)
}

// confine applies the spec's Landlock rules and seccomp filter to the
// calling thread and drops the ambient capabilities.
func confine(s spec) error {
	if s.Landlock == 0 && !s.Seccomp {
		return nil
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	if s.Landlock > 0 {
		if err := restrictFiles(s.Landlock, s.Policy); err != nil {
			return err
		}
	}
	if s.Seccomp {
		if err := installSeccomp(filterOptions{
			// Unix sockets only where the user allowed local networking
			// (then the shared socket directories are hidden) or where
			// Landlock rules them by path; socketpair always works.
			unixSockets: (s.Namespaces && s.Policy.Network == NetworkLoopback) || s.Landlock >= 9,
			inet:        s.Namespaces && s.Policy.Network == NetworkLoopback,
		}); err != nil {
			return err
		}
	}
	// The command gets no capabilities of the helper.
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("drop ambient capabilities: %w", err)
	}
	return nil
}

// supervise runs argv as a child and waits for it; then it kills and
// reaps every descendant left. With namespaces the child is the second
// stage (see initMain) in a PID namespace of its own: it becomes the
// namespace's init, gets a /proc of its own and then runs argv, so that
// the whole tree dies with the command. It returns the command's exit
// code (128+signal when killed) and the signal that killed it, if one did.
func supervise(s spec, argv []string, sigs <-chan os.Signal) (int, syscall.Signal) {
	path := "/proc/self/exe" // the helper itself, even where its directory is hidden
	if s.Namespaces {
		if err := unix.Unshare(unix.CLONE_NEWPID); err != nil {
			fmt.Fprintf(os.Stderr, "tick: the sandbox could not be set up: make a PID namespace: %v\n", err)
			return 125, 0
		}
		argv = initArgs(s, argv)
	} else {
		var err error
		if path, err = exec.LookPath(argv[0]); err != nil {
			fmt.Fprintf(os.Stderr, "tick: %v\n", err)
			return 127, 0
		}
	}
	wd, _ := os.Getwd()
	// syscall, not os: os.StartProcess first forks a probe child, which
	// would become the PID namespace's init and leave it dead.
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Dir:   wd,
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "tick: start %s: %v\n", argv[0], err)
		return 126, 0
	}
	done := make(chan unix.WaitStatus, 1)
	go func() {
		var ws unix.WaitStatus
		for {
			_, err := unix.Wait4(pid, &ws, 0, nil)
			if !errors.Is(err, unix.EINTR) {
				break
			}
		}
		done <- ws
	}()
	var code int
	var sig syscall.Signal
	select {
	case ws := <-done:
		code = exitCode(ws)
		if ws.Signaled() {
			sig = ws.Signal()
		}
	case s := <-sigs:
		_ = unix.Kill(pid, unix.SIGKILL)
		<-done
		code = 128 + int(s.(syscall.Signal))
	}
	reapAll()
	return code, sig
}

// raise ends the helper with sig's default action (no core file), past
// the Go runtime's own handlers; it returns if sig's default is to ignore.
func raise(sig syscall.Signal) {
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	var dfl [4]uint64 // struct sigaction: handler SIG_DFL, flags, restorer, mask
	_, _, _ = unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&dfl)), 0, 8, 0, 0)
	var set unix.Sigset_t
	set.Val[0] = 1 << (uint(sig) - 1)
	_ = unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
	_ = unix.Tgkill(os.Getpid(), unix.Gettid(), sig)
	time.Sleep(100 * time.Millisecond) // delivery is asynchronous only to other threads
}

// exitCode is the shell's convention for a wait status.
func exitCode(ws unix.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
