//go:build unix

package safefile

import "syscall"

// openFlags: no waiting for a pipe's writer, no following a link swapped
// in after the check, no controlling terminal.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOFOLLOW | syscall.O_NOCTTY | syscall.O_CLOEXEC

// dirFlags: as openFlags, and the open fails unless it is a directory.
const dirFlags = openFlags | syscall.O_DIRECTORY
