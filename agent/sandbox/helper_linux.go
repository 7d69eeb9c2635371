package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sysProcAttr is how the parent starts the helper: in a session of its
// own, and with ns in new user, mount, network and PID namespaces where
// the helper keeps the user's uid and gid but holds CAP_SYS_ADMIN and
// CAP_NET_ADMIN inside them (ambient), which are dropped before bash
// starts. The helper is the PID namespace's init: when it ends, however
// it ends, the kernel kills every process of the command. When tick
// dies, however it dies (SIGKILL, the OOM killer), the kernel signals the
// helper (Pdeathsig): without namespaces SIGTERM, on which it ends its
// command and everything the command started, as when tick stops it; in
// them SIGKILL, which ends the PID namespace and all in it even while the
// helper is starting (the namespace's init drops a SIGTERM it has no
// handler for yet). A spare waiting for a command ends either way.
// Without it a killed tick left a long command running, with its helper.
// The kernel sends it when the thread that started the helper ends, not
// only the process: Go ends a thread only when a goroutine locked to it
// returns, which tick's goroutines that start helpers never are.
func sysProcAttr(ns bool) *syscall.SysProcAttr {
	a := newSession()
	a.Pdeathsig = syscall.SIGTERM
	if !ns {
		return a
	}
	uid, gid := os.Getuid(), os.Getgid()
	a.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	a.GidMappingsEnableSetgroups = false
	a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN}
	a.Pdeathsig = syscall.SIGKILL
	return a
}

// Main is the sandbox helper: args are what followed HelperArg, a spec in
// JSON, "--", and the command to run (bash -c SCRIPT). It applies the
// spec's policy to itself, runs the command as its child with the
// inherited standard streams, environment and directory, and when the
// command ends (or on SIGTERM, SIGINT or SIGHUP) kills and reaps every
// process the command left behind. It returns the exit code to exit with:
// the command's, or 128+signal when a signal ended it; 125 when the
// sandbox could not be set up (the reason on stderr). Without namespaces
// it ends by the command's signal itself, so that the caller sees it;
// with them, as the PID namespace's init, it cannot end by a signal it
// sends itself and does so only for SIGSYS (see endBy).
func Main(args []string) int {
	// Every restriction is applied to this thread and inherited by the
	// command, which is started from it.
	runtime.LockOSThread()
	if len(args) == 1 && args[0] == spareArg {
		return spareMain()
	}
	if len(args) < 2 || args[1] != "--" {
		fmt.Fprintln(os.Stderr, "tick __sandbox: usage: tick __sandbox SPEC -- COMMAND...")
		return 125
	}
	if err := closeInherited(); err != nil {
		fmt.Fprintf(os.Stderr, "tick: the sandbox could not be set up: %v\n", err)
		return 125
	}
	s, ok := readSpec(args[0])
	if !ok {
		return 125
	}
	wd, _ := os.Getwd()
	return run(s, args[2:], os.Environ(), wd, nil)
}

// readSpec reads the spec in JSON the helper was given; false (having
// said why on stderr) when it cannot.
func readSpec(arg string) (spec, bool) {
	var s spec
	if err := json.Unmarshal([]byte(arg), &s); err != nil {
		fmt.Fprintf(os.Stderr, "tick __sandbox: read the spec: %v\n", err)
		return s, false
	}
	return s, true
}

// notify returns the channel of the signals that end the command
// (SIGTERM, SIGINT, SIGHUP), which from now on do not end the helper.
func notify() <-chan os.Signal {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	return sigs
}

// run is Main past its checks: s is the spec, argv the command, env its
// environment, dir its working directory and sigs the signals that end
// it (see notify; nil: from now on).
func run(s spec, argv, env []string, dir string, sigs <-chan os.Signal) int {
	if s.Probe {
		return probeMain(s)
	}
	if sigs == nil {
		sigs = notify()
	}
	if err := apply(s); err != nil {
		fmt.Fprintf(os.Stderr, "tick: the sandbox could not be set up: %v\n", err)
		return 125
	}
	code, sig := supervise(s, argv, env, dir, sigs)
	if sig != 0 {
		endBy(sig, s.Namespaces) // end the same way, so the caller sees the signal
	}
	return code
}

// closeInherited marks every descriptor but the standard streams
// close-on-exec, so that the command gets none of them: what tick
// inherited without that flag from whatever started it (a file outside
// the workspace open for writing, a socket connected outside) would let
// the command write past the file rules and the network namespace,
// which are checked when a file is opened or a socket connected. The
// helper's own descriptors have the flag already.
func closeInherited() error {
	err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EINVAL) { // before Linux 5.11
		return fmt.Errorf("mark the inherited descriptors close-on-exec: %w", err)
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return fmt.Errorf("list the inherited descriptors: %w", err)
	}
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd) // the directory's own descriptor is gone: EBADF, nothing to do
		}
	}
	return nil
}

// probeMain sets up the namespaces and the mounts as a command would get
// them, and prints what it achieved (an initReport in JSON).
func probeMain(s spec) int {
	if err := setupNamespaces(s.Policy); err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		return 125
	}
	rep, err := setupInit()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		return 125
	}
	b, _ := json.Marshal(rep) // two strings: cannot fail
	fmt.Printf("%s\n", b)
	return 0
}

// apply sets up everything the spec asks for on the calling thread. With
// namespaces the helper is init of the command's PID namespace: it makes
// the namespaces' mounts, mounts that PID namespace's /proc and an empty
// /dev/pts and bounds the processes (see setupInit), all before the file
// rules, which forbid mounting. Without them it becomes a subreaper, to
// inherit the orphans of the command's tree.
func apply(s spec) error {
	if !s.Namespaces {
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("become a subreaper: %w", err)
		}
	} else {
		if err := setupNamespaces(s.Policy); err != nil {
			return err
		}
		if _, err := setupInit(); err != nil {
			return err
		}
	}
	if err := shield(); err != nil {
		return err
	}
	return confine(s)
}

// shield keeps the command out of the helper, its parent, which it can
// see in /proc: the helper's other threads are not confined, so code
// written into its memory through /proc/PID/mem would run outside the
// sandbox. The helper becomes non-dumpable, which closes its /proc
// entries (memory, environment, files) to all but holders of
// CAP_SYS_PTRACE, and the command cannot hold that capability: it leaves
// the bounding set (for a command run as root; EPERM means the helper has
// no capabilities to hand on).
func shield() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("make the helper non-dumpable: %w", err)
	}
	if err := unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SYS_PTRACE, 0, 0, 0); err != nil && !errors.Is(err, unix.EPERM) {
		return fmt.Errorf("drop CAP_SYS_PTRACE from the bounding set: %w", err)
	}
	return nil
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

// supervise runs argv as a child and waits for it, reaping on the way the
// orphans the helper inherits; then it kills and reaps every process
// left: with namespaces every other process of its PID namespace, else
// every descendant. It returns the command's exit code (128+signal when
// killed) and the signal that killed it, if one did.
func supervise(s spec, argv, env []string, dir string, sigs <-chan os.Signal) (int, syscall.Signal) {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "tick: %v\n", err)
		return 127, 0
	}
	// syscall.ForkExec forks from this thread, which carries the
	// restrictions.
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Dir:   dir,
		Env:   env,
		Files: []uintptr{0, 1, 2},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "tick: start %s: %v\n", argv[0], err)
		return 126, 0
	}
	done := make(chan unix.WaitStatus, 1)
	go func() { done <- waitFor(pid) }()
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
	if s.Namespaces {
		reapNamespace()
	} else {
		reapAll()
	}
	return code, sig
}

// waitFor reaps children until pid has ended, and returns its status.
// Orphans of the command's tree are the helper's children (as the PID
// namespace's init or as a subreaper); reaping them as they end keeps
// them from holding process numbers until the command ends.
func waitFor(pid int) unix.WaitStatus {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, 0, nil)
		switch {
		case got == pid:
			return ws
		case errors.Is(err, unix.EINTR), err == nil:
			continue
		default: // ECHILD: cannot happen while pid is unreaped
			return ws
		}
	}
}

// endBy ends the helper by sig, so that its caller sees the signal that
// ended the command. Without namespaces it raises sig. As the PID
// namespace's init (ns) the helper cannot end by a signal it sends
// itself; it ends by SIGSYS, the signal the seccomp filter kills a
// command with, through a filter of its own; for any other signal it
// returns and the exit code (128+signal) tells.
func endBy(sig syscall.Signal, ns bool) {
	switch {
	case !ns:
		raise(sig)
	case sig == syscall.SIGSYS:
		dieBySeccomp()
	}
}

// dieBySeccomp ends the helper by SIGSYS: it installs a seccomp filter
// that kills the process at its next system call (which even the PID
// namespace's init cannot ignore), and makes one.
func dieBySeccomp() {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return
	}
	prog := []unix.SockFilter{{Code: bpfRetK, K: unix.SECCOMP_RET_KILL_PROCESS}}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog)))
	if errno != 0 {
		return
	}
	_ = unix.Getppid() // killed here
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
