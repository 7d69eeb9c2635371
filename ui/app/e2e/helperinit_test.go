package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
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

// TestE2ECommandsRunInSpareHelpers (the seam of -p and the sandbox's
// spare helpers): in a -p run, every command after the first runs in a
// spare helper started while the model answered (`__sandbox --spare` is
// its parent), confined as before in the default sandbox and free in
// danger-full-access, and each command's exit status is its own.
func TestE2ECommandsRunInSpareHelpers(t *testing.T) {
	for _, mode := range []string{"workspace-write", "danger-full-access"} {
		t.Run(mode, func(t *testing.T) {
			outside := filepath.Join(t.TempDir(), "outside")
			parent := `tr '\0' ' ' < /proc/$PPID/cmdline; echo; `
			srv := providertest.New(t)
			srv.Enqueue(
				call("bash", map[string]any{"command": parent + "echo in > inside.txt"}),
				call("bash", map[string]any{"command": parent + "echo out > " + outside}),
				call("bash", map[string]any{"command": parent + "exit 3"}),
				providertest.Reply{Text: "done"},
			)
			args, ws := headless(t, srv, "run three", "--yolo", "--no-session", "--sandbox", mode)
			if r := tick(t, nil, "", args...); r.code != app.ExitOK {
				t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
			}
			res := toolResults(srv.Requests())
			if len(res) != 3 {
				t.Fatalf("%d results, want 3: %q", len(res), res)
			}
			for i, out := range res[1:] {
				if !strings.Contains(out, " __sandbox --spare ") {
					t.Errorf("command %d did not run in a spare helper:\n%s", i+2, out)
				}
			}
			if b, err := os.ReadFile(filepath.Join(ws, "inside.txt")); err != nil || string(b) != "in\n" {
				t.Errorf("the write in the workspace: %q, %v", b, err)
			}
			_, err := os.Stat(outside)
			if free := mode == "danger-full-access"; (err == nil) != free {
				t.Errorf("the write outside the workspace landed = %v in %s:\n%s", err == nil, mode, res[1])
			}
			if !strings.Contains(res[2], "exit status 3") {
				t.Errorf("the third command's status:\n%s", res[2])
			}
		})
	}
}
