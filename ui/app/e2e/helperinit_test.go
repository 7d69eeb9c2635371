package e2e

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// heavyInit are packages whose initialisers cost the most of what is
// left (the Markdown parser's entity table and HTML patterns) or that
// every heavy one imports (regexp): a command the model runs must not pay them. (Chroma's
// lexer and style registries and bluemonday, which cost 20-40 ms, are not
// linked at all: ui/markdown's TestRendererDependencies.)
var heavyInit = []string{
	"regexp",
	"github.com/yuin/goldmark/util",
	"github.com/yuin/goldmark/parser",
}

// initTrace runs the built tick with args under GODEBUG=inittrace=1 and
// returns the packages whose initialisers ran, in order.
func initTrace(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command(sharedTick(t), args...)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	cmd.Dir = t.TempDir()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tick %v: %v\n%s", args, err, stderr.String())
	}
	var pkgs []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "init" {
			pkgs = append(pkgs, f[1])
		}
	}
	return pkgs
}

// TestE2ESandboxHelperSkipsHeavyInit: tick run as the sandbox helper (as
// every command the model runs is) runs the command from
// agent/sandbox/entry's initialiser, before the initialisers of the heavy
// packages, which the same binary's --version run shows are linked in.
func TestE2ESandboxHelperSkipsHeavyInit(t *testing.T) {
	full := initTrace(t, "--version")
	for _, pkg := range heavyInit {
		if !slices.Contains(full, pkg) {
			t.Fatalf("tick --version did not initialise %s; the trace reads:\n%s", pkg, strings.Join(full, "\n"))
		}
	}
	helper := initTrace(t, "__sandbox", `{"policy":{"mode":"danger-full-access"}}`, "--", "true")
	if len(helper) == 0 {
		t.Fatal("no init trace from the helper run")
	}
	for _, pkg := range heavyInit {
		if slices.Contains(helper, pkg) {
			t.Errorf("the helper run initialised %s; the trace reads:\n%s", pkg, strings.Join(helper, "\n"))
		}
	}
}

// TestE2ECommandsRunTheSmallHelper: in a -p run, the model's command runs
// under helperbin's helper (from its memory file), not under a copy of
// tick's whole binary, confined or not; the command's parent is the
// helper (the PID namespace's init, or the subreaper without it).
func TestE2ECommandsRunTheSmallHelper(t *testing.T) {
	for _, mode := range []string{"workspace-write", "danger-full-access"} {
		t.Run(mode, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(
				call("bash", map[string]any{"command": `tr '\0' ' ' < /proc/$PPID/cmdline | head -c 40`}),
				providertest.Reply{Text: "done"},
			)
			args, _ := headless(t, srv, "who runs me", "--yolo", "--no-session", "--sandbox", mode)
			if r := tick(t, nil, "", args...); r.code != app.ExitOK {
				t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
			}
			res := strings.Join(toolResults(srv.Requests()), "\n")
			if !strings.HasPrefix(res, "/proc/self/fd/") || !strings.Contains(res, " __sandbox ") {
				t.Errorf("the command's parent is not the small helper; its command line:\n%s", res)
			}
		})
	}
}
