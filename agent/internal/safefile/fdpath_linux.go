package safefile

import (
	"os"
	"strconv"
)

// openedPath returns the path the kernel gives for the open file f, so a
// directory swapped for a link between the check and the open is caught.
func openedPath(f *os.File) (string, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return "", false
	}
	var p string
	var rerr error
	if err := rc.Control(func(fd uintptr) { p, rerr = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10)) }); err != nil {
		return "", false
	}
	return p, rerr == nil
}
