//go:build unix

package session

import (
	"os"
	"syscall"
)

// openFile opens a session file without following a symbolic link: a link
// planted where a session file is expected fails with ELOOP instead of
// sending the conversation somewhere else.
func openFile(path string, flag int, perm ...os.FileMode) (*os.File, error) {
	mode := os.FileMode(0o600)
	if len(perm) > 0 {
		mode = perm[0]
	}
	return os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, mode)
}

// gone reports whether no process has the pid.
func gone(pid int) bool {
	return syscall.Kill(pid, 0) == syscall.ESRCH
}
