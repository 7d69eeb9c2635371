package workcopy

import (
	"errors"

	"golang.org/x/sys/unix"
)

// openBeneath opens the directory rel beneath root in one openat2 call
// that refuses any link and any escape (RESOLVE_BENEATH|
// RESOLVE_NO_SYMLINKS); errNoOpenat2 when the kernel (or a seccomp
// filter) does not have it.
func openBeneath(root int, rel string) (int, error) {
	fd, err := unix.Openat2(root, rel, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS,
	})
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EINVAL) {
		return -1, errNoOpenat2
	}
	return fd, dirErr(err)
}
