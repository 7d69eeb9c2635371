package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tick-agent/tick/agent/sandbox"
)

// newSandbox returns the runner for the model's commands under cfg's
// policy, probing what this machine supports, and a cleanup that removes
// the session's private temporary directory.
func newSandbox(cfg config) (*sandbox.Runner, func(), error) {
	tmp, err := sandbox.NewTempDir()
	if err != nil {
		return nil, nil, fmt.Errorf("make the commands' temporary directory: %w", err)
	}
	cleanup := func() { _ = os.RemoveAll(tmp) }
	p := sandboxPolicy(cfg, tmp)
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	return sandbox.NewRunner(p, sandbox.Probe(exe, p)), cleanup, nil
}

// sandboxPolicy is cfg's sandbox policy with tmp as the private temporary
// directory.
func sandboxPolicy(cfg config, tmp string) sandbox.Policy {
	cache, err := os.UserCacheDir()
	if err == nil && filepath.IsAbs(cache) {
		_ = os.MkdirAll(cache, 0o700) // writable only if it exists
	} else {
		cache = ""
	}
	p := sandbox.Policy{
		Mode:      cfg.sandbox,
		Workspace: cfg.workspace,
		TempDir:   tmp,
		CacheDir:  cache,
	}
	if p.Mode == "" {
		p.Mode = sandbox.WorkspaceWrite
	}
	if s := cfg.settings; s != nil {
		p.Network = s.Network
		for _, r := range s.WritableRoots {
			if r, err := filepath.Abs(r); err == nil {
				p.WritableRoots = append(p.WritableRoots, r)
			}
		}
	}
	return p
}

// sandboxStatus is the status bar's line for the command sandbox.
func sandboxStatus(cfg config) string {
	if cfg.runner == nil {
		return ""
	}
	return cfg.runner.Status("")
}
