// Package atomicfile writes small private files (settings, trust records,
// histories) so that a reader sees either the old content or the new,
// never a half-written file, and nobody but the owner can read them.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// WritePrivate replaces path with data: it creates path's directory
// (0700) when missing, writes data to a temporary file (0600) beside
// path, syncs it and renames it over path. On error path is unchanged and
// no temporary file is left behind. Concurrent writers never share a
// temporary file; the last rename wins.
func WritePrivate(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp") // 0600
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}
