package mcp

import "syscall"

// setDeathSignal makes the kernel kill the server when tick dies, even by
// SIGKILL.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
