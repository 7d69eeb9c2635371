package sandbox

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// maxPIDs is the pid_max of a command's PID namespace: its tree holds at
// most maxPIDs-1 processes (at least maxPIDs-300 once the numbers wrap,
// as the kernel then skips the first 300). Where the kernel has no pid_max
// per namespace (before Linux 6.14) it is the RLIMIT_NPROC instead.
const maxPIDs = 1024

// initReport is what the helper achieved as init of the command's PID
// namespace, for the probe.
type initReport struct {
	// ProcessLimit is the bound on the command's processes in words; ""
	// means none.
	ProcessLimit string `json:"process_limit,omitempty"`
	// ProcWhy says why the command sees the host's /proc; "" means it
	// has its own.
	ProcWhy string `json:"proc_why,omitempty"`
}

// setupInit runs in the helper, init of the command's new PID namespace,
// in the mount namespace it was started in: it mounts that PID
// namespace's /proc (other processes, their command lines and files are
// out of sight), replaces /dev/pts by an empty terminal instance (the
// user's terminal is out of reach) and bounds the process count. Where
// the kernel refuses a new /proc (one with parts hidden by other mounts,
// as in some containers, cannot be mounted again in a user namespace) the
// command keeps the host's, and the report says why.
func setupInit() (initReport, error) {
	var rep initReport
	ownProc := true
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		ownProc = false
		rep.ProcWhy = fmt.Sprintf("the kernel refused a /proc of the command's own: %v", err)
	}
	if err := hideTerminals(); err != nil {
		return rep, err
	}
	rep.ProcessLimit = limitProcesses(ownProc)
	return rep, nil
}

// hideTerminals mounts a new devpts instance on /dev/pts, which holds
// none of the user's terminals (an empty tmpfs where devpts cannot be
// mounted). /dev/tty needs nothing: the helper runs in a session of its
// own, without a controlling terminal.
func hideTerminals() error {
	if fi, err := os.Lstat("/dev/pts"); err != nil || !fi.IsDir() {
		return nil
	}
	const flags = unix.MS_NOSUID | unix.MS_NOEXEC
	err := unix.Mount("devpts", "/dev/pts", "devpts", flags, "newinstance,ptmxmode=0666,mode=0600")
	if err == nil {
		return nil
	}
	if terr := unix.Mount("tmpfs", "/dev/pts", "tmpfs", flags|unix.MS_NODEV, "mode=0755,size=4k"); terr != nil {
		return fmt.Errorf("hide the terminals in /dev/pts: %w", err)
	}
	return nil
}

// limitProcesses bounds the command tree's processes: the PID namespace's
// pid_max where the kernel has one per namespace (and ownProc says /proc
// is the namespace's), else RLIMIT_NPROC, which in the helper's fresh
// user namespace counts only the sandbox's own processes (but does not
// hold root). Either bound counts threads, the helper's included. It
// returns the bound in words, "" when none applies.
func limitProcesses(ownProc bool) string {
	if ownProc { // the host's /proc/sys would hold the host's pid_max
		if err := os.WriteFile("/proc/sys/kernel/pid_max", []byte(strconv.Itoa(maxPIDs)), 0); err == nil {
			return fmt.Sprintf("at most %d processes per command (the PID namespace's pid_max)", maxPIDs-1)
		}
	}
	if os.Getuid() == 0 {
		return ""
	}
	if err := unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: maxPIDs, Max: maxPIDs}); err != nil {
		return ""
	}
	return fmt.Sprintf("at most %d processes per command (RLIMIT_NPROC)", maxPIDs)
}
