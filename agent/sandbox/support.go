package sandbox

import (
	"fmt"
	"strings"
)

// Support is what this machine offers the sandbox, as found by Probe.
type Support struct {
	// LandlockABI is the kernel's Landlock ABI version; 0 means none, and
	// LandlockWhy says why.
	LandlockABI int    `json:"landlock_abi"`
	LandlockWhy string `json:"landlock_why,omitempty"`
	// Seccomp reports whether seccomp filters work on this architecture;
	// SeccompWhy says why not.
	Seccomp    bool   `json:"seccomp"`
	SeccompWhy string `json:"seccomp_why,omitempty"`
	// Namespaces reports whether an unprivileged user namespace with
	// mount, network and PID namespaces could be made and used;
	// NamespacesWhy says why not.
	Namespaces    bool   `json:"namespaces"`
	NamespacesWhy string `json:"namespaces_why,omitempty"`
	// ProcessLimit says in words how many processes a command's tree may
	// have ("at most 1023 processes per command (...)"); "" means no
	// bound applies.
	ProcessLimit string `json:"process_limit,omitempty"`
	// ProcWhy says why commands see the host's /proc (other processes'
	// command lines) although they run in namespaces; "" means they have
	// their own.
	ProcWhy string `json:"proc_why,omitempty"`
	// Helper is the executable re-run as `__sandbox`; "" means commands
	// run bash directly (no confinement, no reaping).
	Helper    string `json:"helper,omitempty"`
	HelperWhy string `json:"helper_why,omitempty"`
}

// Confines reports whether commands can be confined at all: the helper
// runs and Landlock works. Without it every command needs an approval.
func (s Support) Confines() bool {
	return s.Helper != "" && s.LandlockABI > 0
}

// Status is the one line the status bar shows for commands run in mode m:
// "sandbox: workspace-write", "sandbox: files only" (no network
// isolation), "sandbox: workspace-write (partial)" (no namespaces: .git
// stays writable) or "no sandbox — asking for every command".
func (s Support) Status(m Mode) string {
	switch {
	case m == FullAccess:
		return "sandbox: off (" + string(FullAccess) + ")"
	case !s.Confines():
		return "no sandbox — asking for every command"
	case !s.Seccomp && !s.Namespaces:
		return "sandbox: files only"
	case !s.Namespaces && m == WorkspaceWrite:
		return "sandbox: " + string(m) + " (partial)"
	}
	return "sandbox: " + string(m)
}

// Report explains, one line per mechanism, what works and why not for
// policy p, for `tick doctor`.
func (s Support) Report(p Policy) string {
	m := p.Mode
	var b strings.Builder
	line := func(ok bool, what, why string) {
		mark := "ok  "
		if !ok {
			mark = "no  "
		}
		fmt.Fprintf(&b, "  %s%s", mark, what)
		if why != "" {
			fmt.Fprintf(&b, " — %s", why)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s\n", s.Status(m))
	line(s.Helper != "", "sandbox helper (tick __sandbox)", s.HelperWhy)
	if s.LandlockABI > 0 {
		line(true, fmt.Sprintf("Landlock ABI %d: file rules (writes only in the workspace, the private TMPDIR and tick's cache directory for commands; your ~/.cache is read-only)", s.LandlockABI), "")
	} else {
		line(false, "Landlock: file rules", s.LandlockWhy+"; commands are not confined and every command asks for approval")
	}
	if s.Seccomp {
		line(true, "seccomp: no network sockets, no io_uring/ptrace/keyring, foreign architectures killed", "")
	} else {
		line(false, "seccomp", s.SeccompWhy+"; the network is not blocked")
	}
	if s.Namespaces {
		line(true, "user, mount, network and PID namespaces: every .git under the workspace read-only (and .tick, the paths your git config names there), tick's own files hidden, private /tmp and /run, own loopback, no access to your terminal (/dev/pts, /dev/tty), leftovers killed", "")
		if s.ProcWhy == "" {
			line(true, "own /proc: no other process in sight", "")
		} else {
			line(false, "own /proc", s.ProcWhy+"; commands can read other processes' command lines")
		}
	} else {
		line(false, "user namespaces", s.NamespacesWhy+"; .git stays writable, tick's own files (config, sessions) stay readable, Unix sockets are refused, no loopback network, other processes' command lines in /proc and your terminal (/dev/pts) stay readable")
	}
	switch {
	case s.ProcessLimit != "":
		line(true, "fork bombs held: "+s.ProcessLimit, "")
	case !s.Namespaces || s.ProcWhy != "":
		line(false, "process limit", "the bound needs the namespaces and their own /proc; a fork bomb in a command can exhaust the machine's processes")
	default:
		line(false, "process limit", "root is not held to RLIMIT_NPROC, and kernels before 6.14 have no pid_max per PID namespace; a fork bomb in a command can exhaust the machine's processes")
	}
	switch {
	case s.LandlockABI >= 9:
		line(true, "Landlock ABI 9: Unix sockets only inside the writable directories", "")
	case p.Network != NetworkLoopback || !s.Namespaces:
		line(true, "Unix sockets: refused (socketpair works); network = \"loopback\" in the config allows them", "")
	default:
		line(false, "Landlock Unix socket rules (ABI 9)", "network = \"loopback\": sockets under /tmp and /run are hidden, but one elsewhere outside the workspace (e.g. under $HOME) can be connected to")
	}
	return b.String()
}
