//go:build unix

package session

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// openFile opens a session file without following a symbolic link: a link
// planted where a session file is expected fails with ELOOP instead of
// sending the conversation somewhere else. Nor does it wait on a FIFO or
// a device (opened without blocking, then refused as not a regular file):
// a FIFO planted as a session or its pid file made tick wait for a writer
// or a reader that never came.
func openFile(path string, flag int, perm ...os.FileMode) (*os.File, error) {
	mode := os.FileMode(0o600)
	if len(perm) > 0 {
		mode = perm[0]
	}
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC|syscall.O_NONBLOCK, mode)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("open %s: %w", path, errNotRegular)
		}
		return nil, err
	}
	return f, nil
}

// errNotRegular is openFile's error for a FIFO, a device or a socket.
var errNotRegular = errors.New("not a regular file")

// gone reports whether no process has the pid.
func gone(pid int) bool {
	return syscall.Kill(pid, 0) == syscall.ESRCH
}
