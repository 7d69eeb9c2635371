package sandbox

import (
	"strings"
	"testing"
)

// TestReportSaysWhatHolds checks tick doctor's lines for the process
// bound and for a system without a sandbox (Windows and macOS today).
func TestReportSaysWhatHolds(t *testing.T) {
	full := Support{LandlockABI: 7, Seccomp: true, Namespaces: true, Helper: "/bin/tick"}
	bounded := full
	bounded.ProcessLimit = "at most 1023 processes per command (the PID namespace's pid_max)"
	hostProc := bounded
	hostProc.ProcWhy = "the kernel refused a /proc of the command's own: operation not permitted"
	noNS := full
	noNS.Namespaces, noNS.NamespacesWhy = false, "blocked"
	why := "the command sandbox works only on Linux for now"
	none := Support{LandlockWhy: why, SeccompWhy: why, NamespacesWhy: why, HelperWhy: why}
	p := Policy{Mode: WorkspaceWrite, Workspace: "/w"}
	tests := []struct {
		name   string
		s      Support
		status string
		want   []string
	}{
		{"bounded", bounded, "sandbox: workspace-write", []string{"ok  fork bombs held: at most 1023 processes", "ok  own /proc: no other process in sight", "no access to your terminal"}},
		{"host's /proc", hostProc, "sandbox: workspace-write", []string{"no  own /proc — the kernel refused", "can read other processes' command lines"}},
		{"namespaces, no bound", full, "sandbox: workspace-write", []string{"no  process limit — root is not held to RLIMIT_NPROC"}},
		{"no namespaces", noNS, "sandbox: workspace-write (partial)", []string{"no  process limit — the bound needs the namespaces", "your terminal (/dev/pts) stay readable"}},
		{"no sandbox here", none, "no sandbox — asking for every command", []string{"no  sandbox helper (tick __sandbox) — " + why, "every command asks for approval"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Status(p.Mode); got != tt.status {
				t.Errorf("status %q, want %q", got, tt.status)
			}
			rep := tt.s.Report(p)
			for _, w := range tt.want {
				if !strings.Contains(rep, w) {
					t.Errorf("the report does not say %q:\n%s", w, rep)
				}
			}
		})
	}
}
