package sandbox

import "golang.org/x/sys/unix"

// HardenProcess makes tick's own process non-dumpable: other processes of
// the user, the model's commands included, cannot read its memory or
// /proc/PID/environ, which holds the API key tick was started with. (In
// the sandbox's user namespace they cannot anyway; this covers machines
// where the sandbox has no namespaces, and commands run outside it.)
func HardenProcess() {
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}
