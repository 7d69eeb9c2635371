//go:build unix

package workcopy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// tree opens and changes paths beneath the workspace's root without ever
// following a symbolic link: every directory is opened relative to its
// parent's descriptor with O_NOFOLLOW (or in one openat2 call with
// RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS where the kernel has it), so a link
// anywhere on a path, or a directory that became one, stops it. The
// directories it opens stay open (cached) until close.
type tree struct {
	dirs map[string]int // open directories by slash path; "." is the root
}

// openTree opens the workspace root.
func openTree(root string) (*tree, error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open the workspace %s: %w", root, err)
	}
	return &tree{dirs: map[string]int{".": fd}}, nil
}

// close closes every directory the tree opened.
func (t *tree) close() {
	for _, fd := range t.dirs {
		_ = unix.Close(fd)
	}
	t.dirs = nil
}

// dir opens the directory rel (slash path, "." the root). A missing one
// gives fs.ErrNotExist unless create is set, which makes it (mode 0755),
// appending what it made to made. A link or a non-directory on the way
// gives errNotDir.
func (t *tree) dir(rel string, create bool, made *[]string) (int, error) {
	if fd, ok := t.dirs[rel]; ok {
		return fd, nil
	}
	if fd, err := openBeneath(t.dirs["."], rel); err == nil {
		t.dirs[rel] = fd
		return fd, nil
	} else if !errors.Is(err, errNoOpenat2) && !errors.Is(err, fs.ErrNotExist) {
		return -1, err
	}
	parent, err := t.dir(path.Dir(rel), create, made)
	if err != nil {
		return -1, err
	}
	name := path.Base(rel)
	fd, err := openDirAt(parent, name)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = unix.Mkdirat(parent, name, 0o755); err == nil || errors.Is(err, unix.EEXIST) {
			if err == nil {
				*made = append(*made, rel)
			}
			fd, err = openDirAt(parent, name)
		}
	}
	if err != nil {
		return -1, err
	}
	t.dirs[rel] = fd
	return fd, nil
}

// openDirAt opens the directory name in parent without following a link.
func openDirAt(parent int, name string) (int, error) {
	fd, err := unix.Openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	return fd, dirErr(err)
}

// dirErr maps what opening a directory without following links gives.
func dirErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR), errors.Is(err, unix.EXDEV):
		return errNotDir
	case errors.Is(err, unix.ENOENT):
		return fs.ErrNotExist
	}
	return err
}

// lstatAt returns what name in the directory fd is (ok false when it does
// not exist), never following a link.
func (t *tree) lstatAt(fd int, name string) (st state, ok bool, err error) {
	var s unix.Stat_t
	if err := unix.Fstatat(fd, name, &s, unix.AT_SYMLINK_NOFOLLOW); errors.Is(err, unix.ENOENT) {
		return state{}, false, nil
	} else if err != nil {
		return state{}, false, err
	}
	switch s.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		buf := make([]byte, 4096)
		n, err := unix.Readlinkat(fd, name, buf)
		if err != nil {
			return state{}, true, err
		}
		return state{mode: fs.ModeSymlink, link: string(buf[:n])}, true, nil
	case unix.S_IFREG:
		f, err := openAt(fd, name, unix.O_RDONLY, 0)
		if err != nil {
			return state{}, true, err
		}
		defer f.Close()
		st := state{mode: fs.FileMode(s.Mode & 0o777)}
		st.sum, err = sumOf(f)
		return st, true, err
	case unix.S_IFDIR:
		return state{mode: fs.ModeDir}, true, nil
	}
	return state{mode: fs.ModeIrregular}, true, nil
}

// openAt opens name in the directory fd without following a link.
func openAt(fd int, name string, flags int, perm uint32) (*os.File, error) {
	nfd, err := unix.Openat(fd, name, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(nfd), name), nil
}

// openRead opens name in the directory fd for reading, never through a
// link.
func (t *tree) openRead(fd int, name string) (*os.File, error) {
	return openAt(fd, name, unix.O_RDONLY, 0)
}

// createAt makes the new file name in fd with perm (exactly: the umask
// does not apply).
func (t *tree) createAt(fd int, name string, perm fs.FileMode) (*os.File, error) {
	f, err := openAt(fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL, uint32(perm.Perm()))
	if err == nil {
		err = f.Chmod(perm.Perm())
	}
	return f, err
}

// symlinkAt makes the link name in fd pointing at target.
func (t *tree) symlinkAt(fd int, target, name string) error { return unix.Symlinkat(target, fd, name) }

// renameAt renames from to to, both in fd.
func (t *tree) renameAt(fd int, from, to string) error { return unix.Renameat(fd, from, fd, to) }

// removeAt removes the file or link name in fd.
func (t *tree) removeAt(fd int, name string) error {
	err := unix.Unlinkat(fd, name, 0)
	if errors.Is(err, unix.ENOENT) {
		return fs.ErrNotExist
	}
	return err
}

// removeDirAt removes the empty directory name in fd.
func (t *tree) removeDirAt(fd int, name string) error {
	return unix.Unlinkat(fd, name, unix.AT_REMOVEDIR)
}

// openNoFollow opens the file path for reading, failing when its last
// element is a link (a task's copy is read as its walk found it).
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW, 0)
}
