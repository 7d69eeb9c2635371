//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// nativeArch is the seccomp audit architecture of this build; x32Bit marks
// x32 syscall numbers.
const (
	nativeArch uint32 = unix.AUDIT_ARCH_X86_64
	x32Bit     uint32 = 0x40000000
)
