package sandbox

import (
	"io/fs"
	"syscall"
)

// fileIdentity returns fi's device, inode and change time (ns).
func fileIdentity(fi fs.FileInfo) (dev, ino uint64, ctime int64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, fi.ModTime().UnixNano()
	}
	return uint64(st.Dev), st.Ino, st.Ctim.Nano()
}

// dirIdentity returns the device, inode and change time (ns) of the
// directory at abs, not following a symbolic link; ok is false when abs is
// not a directory. It allocates nothing: a scan calls it once per
// directory of the workspace.
func dirIdentity(abs string) (dev, ino uint64, ctime int64, ok bool) {
	var st syscall.Stat_t
	if err := syscall.Lstat(abs, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return 0, 0, 0, false
	}
	return uint64(st.Dev), st.Ino, st.Ctim.Nano(), true
}
