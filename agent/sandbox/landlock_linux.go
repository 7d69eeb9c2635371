package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// accessResolveUnix is Landlock ABI 9's right to connect to a Unix socket
// by path; x/sys does not name it yet.
const accessResolveUnix = 1 << 16

// landlockABI returns the kernel's Landlock ABI version, or 0 and why not.
// Unlike a best-effort ruleset, which silently does nothing without
// Landlock, this says so.
func landlockABI() (int, string) {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	switch {
	case errno == unix.ENOSYS:
		return 0, "the kernel was built without Landlock (CONFIG_SECURITY_LANDLOCK)"
	case errno == unix.EOPNOTSUPP:
		return 0, "Landlock is not enabled at boot (add landlock to the lsm= kernel parameter)"
	case errno != 0:
		return 0, fmt.Sprintf("Landlock is unavailable: %v", errno)
	}
	return int(v), ""
}

// Access rights by ABI version.
func readRights(abi int) uint64 {
	r := uint64(unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR)
	if abi >= 5 {
		r |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return r
}

func writeRights(abi int) uint64 {
	w := uint64(unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_SYM)
	if abi >= 2 {
		w |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		w |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	return w
}

// handledRights is every file right the ABI knows: whatever no rule grants
// is denied.
func handledRights(abi int) uint64 {
	h := readRights(abi) | writeRights(abi) | unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK
	if abi >= 9 {
		h |= accessResolveUnix
	}
	return h
}

// devFiles may be written by every command.
var devFiles = [...]string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty"}

// restrictFiles confines the calling thread (and what it starts) with
// Landlock: read and execute everywhere, write only in the policy's
// writable directories and the harmless device files; with ABI 4 and no
// network allowed, no TCP bind or connect; with ABI 6, no signals or
// abstract Unix sockets outside the sandbox; with ABI 9, Unix sockets only
// in the writable directories.
func restrictFiles(abi int, p Policy) error {
	attr := unix.LandlockRulesetAttr{Access_fs: handledRights(abi)}
	if abi >= 4 && p.Network != NetworkLoopback {
		attr.Access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
	}
	size := unsafe.Sizeof(attr)
	if abi < 6 {
		size = unsafe.Offsetof(attr.Scoped)
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return fmt.Errorf("create the Landlock ruleset (ABI %d): %w", abi, errno)
	}
	defer unix.Close(int(fd))
	fileOnly := uint64(unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV)
	add := func(path string, rights uint64, required bool) error {
		pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			if required {
				return fmt.Errorf("open %s for a Landlock rule: %w", path, err)
			}
			return nil
		}
		defer unix.Close(pfd)
		var st unix.Stat_t
		if err := unix.Fstat(pfd, &st); err == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			rights &= fileOnly
		}
		rights &= handledRights(abi)
		rule := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(pfd)}
		_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, unix.LANDLOCK_RULE_PATH_BENEATH,
			uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
		if errno != 0 {
			return fmt.Errorf("add a Landlock rule for %s: %w", path, errno)
		}
		return nil
	}
	if err := add("/", readRights(abi), true); err != nil {
		return err
	}
	for _, dir := range p.writable() {
		rights := readRights(abi) | writeRights(abi)
		if abi >= 9 {
			rights |= accessResolveUnix
		}
		if err := add(dir, rights, dir == p.Workspace); err != nil {
			return err
		}
	}
	for _, f := range devFiles {
		if err := add(f, readRights(abi)|writeRights(abi), false); err != nil {
			return err
		}
	}
	_, _, errno = unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0)
	if errno != 0 {
		return fmt.Errorf("enforce the Landlock ruleset: %w", errno)
	}
	return nil
}
