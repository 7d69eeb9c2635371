package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Classic BPF opcodes of a seccomp filter.
const (
	bpfLdAbsW = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJeqK   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfJgeK   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	bpfRetK   = unix.BPF_RET | unix.BPF_K
)

// Offsets in struct seccomp_data.
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16 // low 32 bits on little-endian machines
)

// filterOptions says which socket families the filter lets through.
type filterOptions struct {
	unixSockets bool // AF_UNIX (where outside sockets are hidden or ruled)
	inet        bool // AF_INET and AF_INET6 (a private loopback only)
}

// deniedSyscalls fail with EPERM: they reach outside the sandbox (ptrace
// and memory access to other processes, the kernel keyring) or bypass
// the socket rule below (io_uring creates sockets without socket()).
var deniedSyscalls = [...]uintptr{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_MOVE_MOUNT,
	unix.SYS_OPEN_TREE, unix.SYS_FSOPEN, unix.SYS_FSMOUNT, unix.SYS_MOUNT_SETATTR,
}

// seccompProgram builds the filter: kill the process on a foreign
// architecture (a 32-bit binary would otherwise use other syscall numbers
// and bypass it), EPERM for deniedSyscalls, and socket() only for the
// families opt allows (EACCES for the rest: no TCP, UDP, MPTCP, raw,
// netlink or packet sockets).
func seccompProgram(opt filterOptions) []unix.SockFilter {
	ins := func(code uint16, jt, jf uint8, k uint32) unix.SockFilter {
		return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
	}
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }
	prog := []unix.SockFilter{
		ins(bpfLdAbsW, 0, 0, offArch),
		ins(bpfJeqK, 1, 0, nativeArch),
		ins(bpfRetK, 0, 0, unix.SECCOMP_RET_KILL_PROCESS),
		ins(bpfLdAbsW, 0, 0, offNr),
	}
	if x32Bit != 0 { // x32 syscalls share the architecture value
		prog = append(prog,
			ins(bpfJgeK, 0, 1, x32Bit),
			ins(bpfRetK, 0, 0, unix.SECCOMP_RET_KILL_PROCESS))
	}
	for _, nr := range deniedSyscalls {
		prog = append(prog,
			ins(bpfJeqK, 0, 1, uint32(nr)),
			ins(bpfRetK, 0, 0, errno(unix.EPERM)))
	}
	prog = append(prog,
		ins(bpfJeqK, 1, 0, unix.SYS_SOCKET),
		ins(bpfRetK, 0, 0, unix.SECCOMP_RET_ALLOW),
		ins(bpfLdAbsW, 0, 0, offArg0))
	var families []uint32
	if opt.unixSockets {
		families = append(families, unix.AF_UNIX)
	}
	if opt.inet {
		families = append(families, unix.AF_INET, unix.AF_INET6)
	}
	for _, f := range families {
		prog = append(prog,
			ins(bpfJeqK, 0, 1, f),
			ins(bpfRetK, 0, 0, unix.SECCOMP_RET_ALLOW))
	}
	return append(prog, ins(bpfRetK, 0, 0, errno(unix.EACCES)))
}

// installSeccomp loads the filter on the calling thread (no_new_privs
// must be set).
func installSeccomp(opt filterOptions) error {
	if nativeArch == 0 {
		return fmt.Errorf("install the seccomp filter: unsupported architecture")
	}
	prog := seccompProgram(opt)
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog)))
	if errno != 0 {
		return fmt.Errorf("install the seccomp filter: %w", errno)
	}
	return nil
}

// seccompSupport reports whether seccomp filters can be used here.
func seccompSupport() (bool, string) {
	if nativeArch == 0 {
		return false, "no seccomp filter for this architecture yet"
	}
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err != nil {
		return false, fmt.Sprintf("the kernel has no seccomp: %v", err)
	}
	return true, ""
}
