package sandbox

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/internal/proctest"
)

// TestFallbackWithoutNamespaces runs the sandbox as it works where
// unprivileged user namespaces are blocked (AppArmor, containers):
// Landlock and seccomp only. Files outside and the network stay out of
// reach, Unix sockets are refused, leftovers are still ended; .git stays
// writable, as the status line and tick doctor say. (Other processes'
// /proc/PID/environ is readable there: tick makes itself non-dumpable.)
func TestFallbackWithoutNamespaces(t *testing.T) {
	exe := helperFor(t)
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Policy{Mode: WorkspaceWrite, Workspace: ws, TempDir: t.TempDir()}
	s := Probe(exe, p)
	s.Namespaces, s.NamespacesWhy = false, "blocked for this test"
	r := NewRunner(p, s)
	if got := r.Status(""); got != "sandbox: workspace-write (partial)" {
		t.Errorf("status %q", got)
	}
	if rep := s.Report(p); !strings.Contains(rep, ".git stays writable") {
		t.Errorf("the report does not say .git stays writable:\n%s", rep)
	}
	l := startListeners(t)
	esc := copyTestBinary(t, ws)
	home, _ := os.UserHomeDir()
	outside, err := os.MkdirTemp(home, ".tick-fallback-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	for _, script := range []string{
		"echo x > " + filepath.Join(outside, "f"),
		"echo x > ../escape-fallback",
		"exec 3<>/dev/tcp/127.0.0.1/" + strconv.Itoa(l.tcp.Addr().(*net.TCPAddr).Port) + " && echo ESCAPED",
		esc + " " + escapeArg + " unix " + l.socks[0].Addr().String(),
		esc + " " + escapeArg + " udp " + l.udp.LocalAddr().String(),
	} {
		if out, code := runIn(t, r, "", script); code == 0 || strings.Contains(out, "ESCAPED") {
			t.Errorf("%s: got through without namespaces (exit %d):\n%s", script, code, out)
		}
	}
	l.check(t)
	if _, err := os.Stat(filepath.Join(outside, "f")); err == nil {
		t.Error("a file was written outside the workspace")
	}
	if out, code := runIn(t, r, "", `echo ok > "$TMPDIR/t" && echo ok > .git/x && echo inside > in.txt`); code != 0 {
		t.Errorf("writes in TMPDIR, the workspace and (without namespaces) .git failed (exit %d):\n%s", code, out)
	}
	marker := "tick-fallback-left-" + filepath.Base(filepath.Dir(ws)) // unique: t.TempDir's random parent
	runIn(t, r, "", "setsid bash -c 'exec -a "+marker+" sleep 300' & echo started")
	if pids := proctest.Named(t, marker); len(pids) > 0 {
		t.Errorf("processes left behind without a PID namespace: %v", pids)
	}

	// Without Landlock nothing confines a command: it says so, and the
	// agent asks before every command.
	s.LandlockABI, s.LandlockWhy = 0, "not in this kernel (test)"
	if r := NewRunner(p, s); r.Confined("") || r.Status("") != "no sandbox — asking for every command" {
		t.Errorf("without Landlock: confined %v, status %q", r.Confined(""), r.Status(""))
	}
}
