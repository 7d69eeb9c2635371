package checkpoint

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// maxExcludeFile bounds how much of one of the user's exclude files is read.
const maxExcludeFile = 1 << 20

// userExcludes returns the exclude rules the user's own git applies to the
// workspace besides its .gitignore files: the repository's info/exclude
// (when the workspace is a repository's top level) and the user's global
// excludes file (core.excludesFile, or git's default
// $XDG_CONFIG_HOME/git/ignore). The files are found by the store's first
// staging and read at every one. The caller holds the lock.
func (s *Store) userExcludes(ctx context.Context) string {
	if s.userExcl == nil {
		s.userExcl = append(s.userExcl, s.repoExclude(), s.globalExclude(ctx))
	}
	var b strings.Builder
	for _, p := range s.userExcl {
		if p == "" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		data, _ := io.ReadAll(io.LimitReader(f, maxExcludeFile))
		f.Close()
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String()
}

// repoExclude is the info/exclude file of the repository whose top level
// is the workspace: in .git, or, when .git is a file ("gitdir: …", a
// worktree or submodule), in the git directory it names (its common
// directory for a worktree). "" when the workspace is not one.
func (s *Store) repoExclude() string {
	dot := filepath.Join(s.work, ".git")
	fi, err := os.Lstat(dot)
	switch {
	case err != nil:
		return ""
	case fi.IsDir():
		return filepath.Join(dot, "info", "exclude")
	case !fi.Mode().IsRegular():
		return ""
	}
	b, err := os.ReadFile(dot)
	if err != nil {
		return ""
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return ""
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(s.work, dir)
	}
	if c, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
		common := strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(dir, common)
		}
		dir = common
	}
	return filepath.Join(dir, "info", "exclude")
}

// globalExclude is the user's global excludes file: core.excludesFile as
// the user's git configuration sets it (read with git, outside the shadow
// repository, with the caller's environment), else git's default.
func (s *Store) globalExclude(ctx context.Context) string {
	cmd := exec.CommandContext(ctx, s.git, "config", "--global", "--path", "--get", "core.excludesFile")
	cmd.Dir = s.work
	cmd.Env = append(gitlessEnv(), "GIT_TERMINAL_PROMPT=0")
	if out, err := cmd.Output(); err == nil {
		if p := strings.TrimSpace(string(out)); p != "" {
			return p
		}
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", "ignore")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".config", "git", "ignore")
	}
	return ""
}
