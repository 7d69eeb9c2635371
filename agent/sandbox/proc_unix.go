//go:build unix

package sandbox

import "syscall"

// newSession is how a command or the helper starts: in a session and
// process group of its own, without a controlling terminal.
func newSession() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// terminate asks process pid to end (SIGTERM).
func terminate(pid int) { _ = syscall.Kill(pid, syscall.SIGTERM) }

// killGroup kills the process group led by pid (SIGKILL).
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

// openNoFollow are the open flags that refuse a symbolic link and never
// block (a FIFO): for reading files a command may have planted.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
