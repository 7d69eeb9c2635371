//go:build !unix

package session

import "os"

// openFile opens a session file (this system has no O_NOFOLLOW).
func openFile(path string, flag int, perm ...os.FileMode) (*os.File, error) {
	mode := os.FileMode(0o600)
	if len(perm) > 0 {
		mode = perm[0]
	}
	return os.OpenFile(path, flag, mode)
}

// gone reports whether no process has the pid; here it cannot be told,
// so a lock's holder is taken to be alive.
func gone(int) bool { return false }
