package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	tickcfg "github.com/tick-agent/tick/agent/config"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/agent/sandbox/helperbin"
	"github.com/tick-agent/tick/agent/session"
)

// newSandbox returns the runner for the model's commands under cfg's
// policy, probing what this machine supports, and a cleanup that ends
// the runner's spare helper and removes the session's private temporary
// directory. env finds tick's own directories, which the policy hides.
func newSandbox(cfg config, env func(string) string) (*sandbox.Runner, func(), error) {
	tmp, err := sandbox.NewTempDir()
	if err != nil {
		return nil, nil, fmt.Errorf("make the commands' temporary directory: %w", err)
	}
	p := sandboxPolicy(cfg, tmp)
	p.Hidden = tickDirs(env)
	p.Protect = protectedPaths(cfg)
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	// The probe runs the helper once, in the background once the first
	// frame is drawn: it costs start-up nothing.
	drawn := cfg.drawn
	r := sandbox.StartRunner(p, func() sandbox.Support {
		afterDrawn(drawn, nil)
		return sandbox.Probe(helperExecutable(exe), p)
	})
	cleanup := func() {
		r.Close()
		_ = os.RemoveAll(tmp)
	}
	return r, cleanup, nil
}

// helperExecutable is what runs the sandbox helper: the small build tick
// carries (helperbin), which starts several times faster than tick's
// whole binary, else tick itself (self, "" when unknown) as `tick
// __sandbox`.
func helperExecutable(self string) string {
	if path, err := helperbin.Load(); err == nil {
		return path
	}
	return self
}

// sandboxPolicy is cfg's sandbox policy with tmp as the private temporary
// directory.
func sandboxPolicy(cfg config, tmp string) sandbox.Policy {
	cache := "" // without a home (never created) the commands get no cache
	if base, err := os.UserCacheDir(); err == nil && session.MkdirUnderHome(base, os.Getenv("HOME")) == nil {
		if dir, err := sandbox.CommandCacheDir(); err == nil {
			cache = dir // the commands' own, not ~/.cache
		}
	}
	p := sandbox.Policy{
		Mode:      cfg.Sandbox,
		Workspace: cfg.Workspace,
		TempDir:   tmp,
		CacheDir:  cache,
	}
	if p.Mode == "" {
		p.Mode = sandbox.WorkspaceWrite
	}
	if s := cfg.Settings; s != nil {
		p.Network = s.Network
		for _, r := range s.WritableRoots {
			if r, err := filepath.Abs(r); err == nil {
				p.WritableRoots = append(p.WritableRoots, r)
			}
		}
	}
	return p
}

// sandboxStatus returns the status bar's line for the command sandbox:
// "" until the probe has finished.
func sandboxStatus(cfg config) func() string {
	r := cfg.runner
	return func() string {
		if r == nil || !r.Ready() {
			return ""
		}
		return r.Status("")
	}
}

// warnSandbox says on stderr when the sandbox is weaker than asked for
// (never silently): no Landlock, no namespaces or no seccomp.
func warnSandbox(cfg config, stderr io.Writer) {
	r := cfg.runner
	if r == nil || r.Mode("") == sandbox.FullAccess {
		return
	}
	if st := r.Status(""); st != "sandbox: "+string(r.Mode("")) {
		fmt.Fprintf(stderr, "tick: %s (tick doctor says why)\n", st)
	}
}

// sandboxReady is closed when the sandbox probe has finished (nil: no
// sandbox).
func sandboxReady(cfg config) <-chan struct{} {
	if cfg.runner == nil {
		return nil
	}
	return cfg.runner.Done()
}

// tickDirs are tick's own files, hidden from sandboxed commands: the
// config directory (keys the setup screen saved, a config file linked
// from elsewhere), the state directory (sessions, undo points, trust
// records, pasted images, prompt history) and the cache directory (the
// commands' own cache directory under it stays theirs).
func tickDirs(env func(string) string) []string {
	var out []string
	if d := tickcfg.UserDir(env); d != "" {
		out = append(out, d, tickcfg.UserPath(env))
	}
	if d, err := session.DefaultDir(env); err == nil {
		out = append(out, filepath.Dir(d))
	}
	if base, err := os.UserCacheDir(); err == nil && filepath.IsAbs(base) {
		out = append(out, filepath.Join(base, "tick"))
	}
	return out
}

// protectedPaths are the workspace paths read-only to sandboxed commands
// besides .git (and what the git config names, which the runner reads):
// tick's project directory, and the files the project's hooks and MCP
// servers run, trusted or not yet.
func protectedPaths(cfg config) []string {
	out := []string{tickcfg.ProjectDirName}
	if s := cfg.Settings; s != nil {
		out = append(out, s.Pending.RunFiles.Paths()...)
	}
	return out
}

// sandboxState is the sandbox's mode for -p's start event, and whether
// it is complete on this machine (every layer works: Landlock, seccomp,
// namespaces); the mode "none" when commands run without a runner.
func sandboxState(cfg config) (string, *bool) {
	r := cfg.runner
	if r == nil {
		return "none", nil
	}
	s := r.Support()
	complete := r.Mode("") == sandbox.FullAccess || (s.Confines() && s.Seccomp && s.Namespaces)
	return string(r.Mode("")), &complete
}
