//go:build unix && !linux

package mcp

import "syscall"

// setDeathSignal does nothing where there is no parent-death signal.
func setDeathSignal(*syscall.SysProcAttr) {}
