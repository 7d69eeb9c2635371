//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// setProcessGroup runs cmd in a process group of its own and kills the
// whole group when its context ends.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
