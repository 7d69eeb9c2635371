package sandbox

import (
	"os"
	"syscall"
)

// newSession is how a command starts: in a process group of its own, so
// that the console's Ctrl+C reaches tick, not the command.
func newSession() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// terminate does nothing: Windows has no SIGTERM, and without the helper
// killGroup follows at once.
func terminate(int) {}

// killGroup kills process pid (Windows has no process groups to signal;
// what the command started in the background may outlive it).
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

// openNoFollow: Windows has no such open flags; callers check the file
// they opened (Stat) before reading it.
const openNoFollow = 0
