package sandbox

import (
	"fmt"
	"testing"

	"golang.org/x/sys/unix"
)

// seccompInput is the part of struct seccomp_data the filter looks at.
type seccompInput struct {
	arch, nr uint32
	arg0     uint64
}

// runFilter interprets prog, a classic BPF seccomp program, on in the way
// the kernel does and returns the action it ends with; an unknown opcode,
// a load outside what the filter may read, a jump out of the program or
// falling off its end fails the test.
func runFilter(t *testing.T, prog []unix.SockFilter, in seccompInput) uint32 {
	t.Helper()
	if len(prog) == 0 || len(prog) > unix.BPF_MAXINSNS {
		t.Fatalf("the program has %d instructions", len(prog))
	}
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		ins := prog[pc]
		switch ins.Code {
		case bpfLdAbsW:
			switch ins.K {
			case offNr:
				acc = in.nr
			case offArch:
				acc = in.arch
			case offArg0:
				acc = uint32(in.arg0)
			default:
				t.Fatalf("instruction %d loads offset %d", pc, ins.K)
			}
		case bpfJeqK, bpfJgeK:
			taken := acc == ins.K
			if ins.Code == bpfJgeK {
				taken = acc >= ins.K
			}
			if taken {
				pc += int(ins.Jt)
			} else {
				pc += int(ins.Jf)
			}
			if pc+1 >= len(prog) {
				t.Fatalf("instruction %d jumps past the end", pc)
			}
		case bpfRetK:
			return ins.K
		default:
			t.Fatalf("instruction %d has the unknown opcode %#x", pc, ins.Code)
		}
	}
	t.Fatal("the program ends without returning")
	return 0
}

// TestSeccompProgram runs the filter the builder makes, for each set of
// options, on the syscalls it must tell apart.
func TestSeccompProgram(t *testing.T) {
	if nativeArch == 0 {
		t.Skip("no seccomp filter for this architecture")
	}
	const (
		allow = unix.SECCOMP_RET_ALLOW
		kill  = unix.SECCOMP_RET_KILL_PROCESS
		eperm = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		eacc  = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
	)
	none := filterOptions{}
	unixOnly := filterOptions{unixSockets: true}
	loopback := filterOptions{unixSockets: true, inet: true}
	native := func(nr uintptr) seccompInput { return seccompInput{arch: nativeArch, nr: uint32(nr)} }
	socket := func(family int) seccompInput {
		return seccompInput{arch: nativeArch, nr: unix.SYS_SOCKET, arg0: uint64(family)}
	}
	other := uint32(unix.AUDIT_ARCH_I386)
	if nativeArch == unix.AUDIT_ARCH_I386 {
		other = unix.AUDIT_ARCH_ARM
	}
	type test struct {
		name string
		opt  filterOptions
		in   seccompInput
		want uint32
	}
	tests := []test{
		{"read", none, native(unix.SYS_READ), allow},
		{"execve", none, native(unix.SYS_EXECVE), allow},
		{"socketpair", none, native(unix.SYS_SOCKETPAIR), allow},
		{"foreign architecture", loopback, seccompInput{arch: other, nr: unix.SYS_READ}, kill},
		{"foreign architecture's socket", loopback, seccompInput{arch: other, nr: 102}, kill},
		{"ptrace", loopback, native(unix.SYS_PTRACE), eperm},
		{"process_vm_readv", none, native(unix.SYS_PROCESS_VM_READV), eperm},
		{"io_uring_setup", loopback, native(unix.SYS_IO_URING_SETUP), eperm},
		{"keyctl", none, native(unix.SYS_KEYCTL), eperm},
		{"mount", none, native(unix.SYS_MOUNT), eperm},
		{"inet socket", none, socket(unix.AF_INET), eacc},
		{"inet6 socket", unixOnly, socket(unix.AF_INET6), eacc},
		{"unix socket refused", none, socket(unix.AF_UNIX), eacc},
		{"unix socket allowed", unixOnly, socket(unix.AF_UNIX), allow},
		{"inet socket on loopback", loopback, socket(unix.AF_INET), allow},
		{"inet6 socket on loopback", loopback, socket(unix.AF_INET6), allow},
		{"netlink socket", loopback, socket(unix.AF_NETLINK), eacc},
		{"packet socket", loopback, socket(unix.AF_PACKET), eacc},
		{"family in the high bits", loopback, socket(1<<32 | unix.AF_NETLINK), eacc},
	}
	if x32Bit != 0 {
		tests = append(tests, test{"x32 syscall", loopback, seccompInput{arch: nativeArch, nr: x32Bit | unix.SYS_READ}, kill})
	}
	for _, nr := range deniedSyscalls {
		tests = append(tests, test{fmt.Sprintf("denied syscall %d", nr), loopback, native(nr), eperm})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := runFilter(t, seccompProgram(tt.opt), tt.in); got != tt.want {
				t.Errorf("the filter returns %#x, want %#x", got, tt.want)
			}
		})
	}
}
