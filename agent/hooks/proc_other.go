//go:build !unix

package hooks

import "os/exec"

// setProcessGroup leaves cmd as it is where there are no process groups.
func setProcessGroup(*exec.Cmd) {}
