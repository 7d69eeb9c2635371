//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in a process group of its own, so that
// killProcessGroup reaches its children too, and kills the group when the
// command's context ends. On Linux the server also dies with tick.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
	cmd.Cancel = func() error {
		killProcessGroup(cmd.Process.Pid)
		return nil
	}
}

// killProcessGroup sends SIGKILL to the process group pgid.
func killProcessGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}
