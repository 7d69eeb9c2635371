package workcopy

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tick-agent/tick/agent/sandbox"
)

// GitEntries lists the .git entries of the copy (slash paths relative to
// Dir, sorted) that the user's git would trust if they ran it there: all
// but the .git file New wrote, unchanged. A kept copy is handed to the
// user, so the caller moves these aside first (sandbox.Quarantine).
// Links are not followed and .git directories not entered.
func (c *Copy) GitEntries() ([]string, error) {
	var out []string
	err := filepath.WalkDir(c.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() != sandbox.GitMetaName || p == c.Dir {
			return nil
		}
		rel, _ := filepath.Rel(c.Dir, p)
		if rel == sandbox.GitMetaName && c.gitfile != "" && d.Type().IsRegular() {
			if b, err := os.ReadFile(p); err == nil && bytes.Equal(b, []byte(c.gitfile)) {
				return nil
			}
		}
		out = append(out, filepath.ToSlash(rel))
		if d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("look for git metadata in the task's copy %s: %w", c.Dir, err)
	}
	return out, nil
}
