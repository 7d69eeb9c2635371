//go:build unix

package session

import (
	"errors"
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

// tryLock takes an exclusive flock on f without waiting; ok is false when
// another open file holds it. The kernel drops the lock when the file is
// closed or its process dies, so a killed tick leaves no stale lock.
func tryLock(f *os.File) (ok bool, err error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) {
		for {
			lerr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
			if !errors.Is(lerr, syscall.EINTR) {
				return
			}
		}
	}); err != nil {
		return false, err
	}
	if errors.Is(lerr, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return lerr == nil, lerr
}
