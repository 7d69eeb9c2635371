//go:build unix

package agent

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// signalNumber returns the number of a signal by its Go name ("killed",
// "bad system call"), or 0 when it is not known.
func signalNumber(name string) int {
	for i := 1; i < 65; i++ {
		if unix.Signal(i).String() == name {
			return i
		}
	}
	return 0
}

// writableOutside reports whether tick itself (outside the sandbox) may
// write path: the path or, when it does not exist, its nearest existing
// parent directory.
func writableOutside(path string) bool {
	for p := path; ; p = filepath.Dir(p) {
		err := unix.Access(p, unix.W_OK)
		if err == nil {
			return true
		}
		if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, unix.ENOENT) {
			return false
		}
		if p == filepath.Dir(p) {
			return false
		}
	}
}
