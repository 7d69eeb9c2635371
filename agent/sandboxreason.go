package agent

import (
	"path/filepath"
	"strings"

	"github.com/tick-agent/tick/agent/sandbox"
)

// sandboxReason says what the sandbox refused a blocked command, from its
// result, the workspace and the policy in mode (desc is the policy's
// Describe, "workspace-write: no network"): a write outside the workspace
// or into .git with the path the command named, network access, a system
// call. It never blames the sandbox in a fixed phrase: without a sign of
// what was refused it says the sandbox may have refused the command.
func sandboxReason(res, workspace string, mode sandbox.Mode, desc string) string {
	switch {
	case strings.Contains(res, "etwork is unreachable"), strings.Contains(res, "Could not resolve host"),
		strings.Contains(res, "Temporary failure in name resolution"):
		return "the sandbox refused network access (" + desc + ")"
	case strings.Contains(res, "ad system call"):
		return "the sandbox refused a system call (" + desc + ")"
	}
	for _, p := range deniedPaths(res) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(workspace, p)
		}
		p = filepath.Clean(p)
		shown := firstLineOf(p)
		if len(shown) > 200 {
			shown = shown[:200] + "…"
		}
		rel, err := filepath.Rel(workspace, p)
		inside := err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
		switch {
		case mode == sandbox.ReadOnly:
			return "the sandbox refused a write to " + shown + " (" + desc + ": it writes nowhere)"
		case !inside:
			return "the sandbox refused a write outside the workspace, to " + shown + " (" + desc + ": it writes only inside the workspace)"
		case rel == ".git" || strings.HasPrefix(rel, ".git"+string(filepath.Separator)) || strings.Contains(rel, string(filepath.Separator)+".git"+string(filepath.Separator)):
			return "the sandbox refused a write into .git, to " + shown + " (" + desc + ": .git stays read-only)"
		}
	}
	return "the sandbox may have refused it (" + desc + ")"
}
