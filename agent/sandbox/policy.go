package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Mode is how far commands are confined; the names are Codex's so users
// know them.
type Mode string

// The modes.
const (
	// ReadOnly: no writes anywhere except the private temporary
	// directory; no network.
	ReadOnly Mode = "read-only"
	// WorkspaceWrite: writes in the workspace (except .git), the private
	// temporary directory, the commands' own cache directory and the
	// extra writable roots; no network unless Policy.Network allows
	// loopback.
	WorkspaceWrite Mode = "workspace-write"
	// FullAccess: no confinement; commands run with the user's rights.
	FullAccess Mode = "danger-full-access"
)

// ParseMode returns the Mode named s; "" is WorkspaceWrite.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.TrimSpace(s)); m {
	case "":
		return WorkspaceWrite, nil
	case ReadOnly, WorkspaceWrite, FullAccess:
		return m, nil
	}
	return "", fmt.Errorf("unknown sandbox mode %q: use %s, %s or %s", s, ReadOnly, WorkspaceWrite, FullAccess)
}

// NetworkLoopback is the Policy.Network value that lets commands use a
// loopback interface of their own (not the host's services).
const NetworkLoopback = "loopback"

// Policy is what a confined command may touch. Paths are absolute.
type Policy struct {
	Mode      Mode   `json:"mode"`
	Workspace string `json:"workspace"`
	// WritableRoots are extra directories writable in WorkspaceWrite.
	WritableRoots []string `json:"writable_roots,omitempty"`
	// Network is "" (none) or NetworkLoopback.
	Network string `json:"network,omitempty"`
	// TempDir is the private temporary directory (TMPDIR), writable in
	// every mode; "" means none.
	TempDir string `json:"temp_dir,omitempty"`
	// CacheDir is the commands' own cache directory (see
	// CommandCacheDir), writable in WorkspaceWrite, where confined
	// commands' caches go (see CacheEnv); "" means none. The user's own
	// caches stay readable but not writable.
	CacheDir string `json:"cache_dir,omitempty"`
	// GitMeta are workspace-relative paths made read-only in
	// WorkspaceWrite besides the workspace's .git: the nested .git
	// entries and what they point to (Runner.Command fills it in).
	GitMeta []string `json:"git_meta,omitempty"`
	// Protect are workspace-relative, slash-separated paths made
	// read-only in WorkspaceWrite like .git: tick's project directory
	// (.tick), the files trusted hooks and MCP servers run, and what the
	// repository's git config names inside the workspace (Runner.Command
	// adds those, see GitConfigPaths). A path missing when the command
	// starts is not protected.
	Protect []string `json:"protect,omitempty"`
	// Hidden are absolute paths hidden from confined commands in every
	// mode: tick's own config, state and cache directories (and a file
	// they link to). A command can neither read nor write under them;
	// the policy's own directories (the workspace, TempDir, CacheDir, the
	// writable roots) stay where they are even under a hidden one.
	Hidden []string `json:"hidden,omitempty"`
}

// writable returns the directories commands may write under p, in order:
// the temporary directory always, then for WorkspaceWrite the workspace,
// the cache directory and the extra roots.
func (p Policy) writable() []string {
	var out []string
	add := func(dir string) {
		if dir != "" && filepath.IsAbs(dir) {
			out = append(out, filepath.Clean(dir))
		}
	}
	add(p.TempDir)
	if p.Mode == WorkspaceWrite {
		add(p.Workspace)
		add(p.CacheDir)
		for _, r := range p.WritableRoots {
			add(r)
		}
	}
	return out
}

// AllowsWrite reports whether a confined command may write path (absolute,
// cleaned here) under p: inside a writable directory, and not in the
// workspace's git metadata (a .git entry or one GitMeta names). In
// FullAccess every path is allowed.
func (p Policy) AllowsWrite(path string) bool {
	if p.Mode == FullAccess {
		return true
	}
	path = filepath.Clean(path)
	if rel, ok := within(p.Workspace, path); ok && p.Mode == WorkspaceWrite {
		if InGitMeta(filepath.ToSlash(rel)) {
			return false
		}
		for _, g := range p.GitMeta {
			if _, in := within(filepath.Join(p.Workspace, g), path); in {
				return false
			}
		}
	}
	for _, dir := range p.writable() {
		if _, ok := within(dir, path); ok {
			return true
		}
	}
	return false
}

// within reports whether path is dir or under it, and its relative path.
func within(dir, path string) (string, bool) {
	if dir == "" {
		return "", false
	}
	rel, err := filepath.Rel(filepath.Clean(dir), path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	if rel == "." {
		rel = ""
	}
	return rel, true
}

// Describe says in a few words what p allows, for messages to the model:
// "workspace-write: no network".
func (p Policy) Describe() string {
	if p.Mode == FullAccess {
		return string(FullAccess)
	}
	net := "no network"
	if p.Network == NetworkLoopback {
		net = "loopback network only"
	}
	return string(p.Mode) + ": " + net
}
