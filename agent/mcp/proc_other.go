//go:build !unix

package mcp

import "os/exec"

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup does nothing where there are no process groups.
func killProcessGroup(int) {}
