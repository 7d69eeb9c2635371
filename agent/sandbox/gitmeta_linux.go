package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// protectGitMeta makes the workspace's .git read-only, and every path of
// p.GitMeta (the nested .git entries the runner found and what they point
// to in the workspace), so that a command can neither change a
// repository's config or hooks nor replace a gitfile. A path that is
// missing, a symbolic link, or outside the workspace is left alone: the
// runner resolved the links it found.
func protectGitMeta(p Policy) error {
	seen := map[string]bool{}
	for _, rel := range append([]string{GitMetaName}, p.GitMeta...) {
		if seen[rel] {
			continue
		}
		seen[rel] = true
		abs := filepath.Join(p.Workspace, filepath.FromSlash(rel))
		if !strings.HasPrefix(abs, p.Workspace+string(filepath.Separator)) {
			continue
		}
		if fi, err := os.Lstat(abs); err != nil || fi.Mode()&os.ModeSymlink != 0 {
			continue
		}
		if err := bindReadOnly(abs); err != nil {
			return err
		}
	}
	return nil
}
