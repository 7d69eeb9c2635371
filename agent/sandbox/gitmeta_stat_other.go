//go:build !linux

package sandbox

import (
	"io/fs"
	"os"
)

// fileIdentity returns fi's modification time (ns) only: elsewhere than
// Linux no command is confined, and the watch is a best effort.
func fileIdentity(fi fs.FileInfo) (dev, ino uint64, ctime int64) {
	return 0, 0, fi.ModTime().UnixNano()
}

// dirIdentity returns the modification time (ns) of the directory at abs,
// not following a symbolic link; ok is false when abs is not a directory.
func dirIdentity(abs string) (dev, ino uint64, ctime int64, ok bool) {
	fi, err := os.Lstat(abs)
	if err != nil || !fi.IsDir() {
		return 0, 0, 0, false
	}
	return 0, 0, fi.ModTime().UnixNano(), true
}
