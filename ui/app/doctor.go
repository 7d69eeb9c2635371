package app

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/agent/tools"
)

// runDoctor is `tick doctor`: what the command sandbox can do here, what
// it cannot and why, and whether git (which /undo needs) is installed.
func runDoctor(cfg config, env func(string) string, stdout, stderr io.Writer) int {
	runner, cleanup, err := newSandbox(cfg, env)
	if err != nil {
		return fail(stderr, err)
	}
	defer cleanup()
	p := runner.Policy()
	fmt.Fprintf(stdout, "%s on %s/%s, kernel %s\n\n", versionString(), runtime.GOOS, runtime.GOARCH, kernelRelease())
	fmt.Fprintf(stdout, "Command sandbox (--sandbox %s, workspace %s):\n", p.Mode, p.Workspace)
	fmt.Fprint(stdout, runner.Support().Report(p))
	switch {
	case p.Mode == sandbox.FullAccess:
		fmt.Fprintln(stdout, "  commands run with your rights; in auto mode each one asks first")
	case !runner.Confined(""):
		fmt.Fprintln(stdout, "  commands cannot be confined here: each one asks first (tick -p refuses them without --yolo)")
	default:
		fmt.Fprintln(stdout, "  in auto mode, sandboxed commands run without asking; a command the sandbox blocks can be run again outside it once you agree")
	}
	fmt.Fprintln(stdout)
	if size, err := agent.MeasurePrompt(agent.Config{Workspace: p.Workspace, ToolOptions: tools.Options{Sandbox: runner}}); err == nil {
		fmt.Fprintf(stdout, "ok  every request starts with ~%d tokens: system prompt ~%d, tool schemas ~%d (before AGENTS.md and MCP tools)\n", size.Total(), size.System, size.Tools)
	}
	if out, err := exec.Command("git", "--version").Output(); err == nil {
		fmt.Fprintf(stdout, "ok  %s (for /undo)\n", strings.TrimSpace(string(out)))
	} else {
		fmt.Fprintln(stdout, "no  git is not installed: /undo cannot restore files (install git)")
	}
	return ExitOK
}

// kernelRelease is the running kernel's release, or "unknown".
func kernelRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}
