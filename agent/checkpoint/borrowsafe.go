package checkpoint

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tick-agent/tick/agent/internal/safefile"
)

// A hostile repository can put anything where git expects a file: a
// FIFO as its index or as an object (git would wait on it for ever), a
// symbolic link out of the repository, an alternates file naming another
// object store. Borrowing reads only regular files inside the user's
// git directory, or borrows nothing.

// plainObjects reports whether the object store objs holds only regular
// files in real directories, and names no other store (an alternates
// file): what git reads from it while copying then cannot block on a
// FIFO or a device, nor lead outside the repository. It reads the
// directories' entries, never opens a file.
func plainObjects(objs string) bool {
	fi, err := os.Lstat(objs)
	if err != nil || !fi.IsDir() {
		return false
	}
	if _, err := os.Lstat(filepath.Join(objs, "info", "alternates")); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	err = filepath.WalkDir(objs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() && !d.IsDir() {
			return fmt.Errorf("checkpoint: %s is not a regular file", p)
		}
		return nil
	})
	return err == nil
}

// readIndex reads the user's index in gitDir as safefile opens a file:
// a regular file inside gitDir (a link out of it, a FIFO or a device is
// refused before it is opened), and returns its content and its times.
func readIndex(gitDir string) ([]byte, fs.FileInfo, error) {
	f, fi, err := safefile.Open(gitDir, filepath.Join(gitDir, "index"))
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint: read the user's index: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint: read the user's index: %w", err)
	}
	return b, fi, nil
}
