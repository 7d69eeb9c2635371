//go:build !linux

package sandbox

import (
	"fmt"
	"os"
	"syscall"
)

// sysProcAttr starts the helper in a session of its own; no namespaces
// outside Linux.
func sysProcAttr(bool) *syscall.SysProcAttr { return newSession() }

// Main is the sandbox helper; outside Linux there is none.
func Main([]string) int {
	fmt.Fprintln(os.Stderr, "tick __sandbox: the command sandbox works only on Linux for now")
	return 125
}

// Probe reports that this system has no sandbox yet.
func Probe(string, Policy) Support {
	why := "the command sandbox works only on Linux for now"
	return Support{LandlockWhy: why, SeccompWhy: why, NamespacesWhy: why, HelperWhy: why}
}
