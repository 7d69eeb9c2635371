//go:build unix

// Package flock takes exclusive advisory locks on open files (flock(2)),
// for state that two tick processes may share: a session file, a
// workspace's checkpoint repository. The kernel drops a lock when its file
// is closed or its process dies, so a killed tick leaves no stale lock.
package flock

import (
	"errors"
	"os"
	"syscall"
)

// Try takes an exclusive lock on f without waiting; ok is false when
// another open file holds it.
func Try(f *os.File) (ok bool, err error) {
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
