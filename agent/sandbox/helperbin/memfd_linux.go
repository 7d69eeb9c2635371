package helperbin

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// memExecutable copies bin into a memory file, seals it against any
// change, and reopens it read-only (a file open for writing cannot be
// executed); it returns the read-only descriptor, which the caller keeps
// open as long as it executes /proc/self/fd/N.
func memExecutable(bin io.Reader) (int, error) {
	fd, err := unix.MemfdCreate("tick-sandbox-helper", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING|unix.MFD_EXEC)
	if errors.Is(err, unix.EINVAL) { // a kernel before 6.3 knows no MFD_EXEC (and needs none)
		fd, err = unix.MemfdCreate("tick-sandbox-helper", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	}
	if err != nil {
		return -1, fmt.Errorf("make the sandbox helper's memory file: %w", err)
	}
	f := os.NewFile(uintptr(fd), "tick-sandbox-helper")
	defer f.Close()
	if _, err := io.Copy(f, bin); err != nil {
		return -1, fmt.Errorf("write the sandbox helper's memory file: %w", err)
	}
	const seals = unix.F_SEAL_SHRINK | unix.F_SEAL_GROW | unix.F_SEAL_WRITE | unix.F_SEAL_SEAL
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, seals); err != nil {
		return -1, fmt.Errorf("seal the sandbox helper's memory file: %w", err)
	}
	ro, err := unix.Open("/proc/self/fd/"+strconv.Itoa(fd), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("reopen the sandbox helper's memory file read-only: %w", err)
	}
	return ro, nil
}

// closeFD closes a descriptor memExecutable returned.
func closeFD(fd int) { _ = unix.Close(fd) }
