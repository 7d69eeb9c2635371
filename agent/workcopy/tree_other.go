//go:build !unix

package workcopy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// tree works on paths beneath the workspace's root without following a
// symbolic link: each directory on a path is checked with Lstat before
// it is used (without openat, a race with a process changing the tree at
// that moment remains). Directories are named by an index into paths.
type tree struct {
	root  string
	dirs  map[string]int
	paths []string
}

// openTree opens the workspace root.
func openTree(root string) (*tree, error) {
	if _, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("open the workspace %s: %w", root, err)
	}
	return &tree{root: root, dirs: map[string]int{".": 0}, paths: []string{root}}, nil
}

// close forgets the directories.
func (t *tree) close() { t.dirs, t.paths = nil, nil }

// dir returns the directory rel (see the unix version).
func (t *tree) dir(rel string, create bool, made *[]string) (int, error) {
	if fd, ok := t.dirs[rel]; ok {
		return fd, nil
	}
	parent, err := t.dir(path.Dir(rel), create, made)
	if err != nil {
		return -1, err
	}
	p := filepath.Join(t.paths[parent], path.Base(rel))
	info, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = os.Mkdir(p, 0o755); err == nil {
			*made = append(*made, rel)
			info, err = os.Lstat(p)
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return -1, fs.ErrNotExist
	case err != nil:
		return -1, err
	case !info.IsDir():
		return -1, errNotDir
	}
	t.paths = append(t.paths, p)
	t.dirs[rel] = len(t.paths) - 1
	return len(t.paths) - 1, nil
}

// lstatAt returns what name in the directory fd is (see stat; a
// directory's or a special file's state never equals a file's).
func (t *tree) lstatAt(fd int, name string) (state, bool, error) {
	return stat(filepath.Join(t.paths[fd], name))
}

// openRead opens name in the directory fd for reading, never through a
// link at its end.
func (t *tree) openRead(fd int, name string) (*os.File, error) {
	return openNoFollow(filepath.Join(t.paths[fd], name))
}

// createAt makes the new file name in fd with perm.
func (t *tree) createAt(fd int, name string, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(filepath.Join(t.paths[fd], name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm.Perm())
}

// symlinkAt makes the link name in fd pointing at target.
func (t *tree) symlinkAt(fd int, target, name string) error {
	return os.Symlink(target, filepath.Join(t.paths[fd], name))
}

// renameAt renames from to to, both in fd.
func (t *tree) renameAt(fd int, from, to string) error {
	return os.Rename(filepath.Join(t.paths[fd], from), filepath.Join(t.paths[fd], to))
}

// removeAt removes the file or link name in fd.
func (t *tree) removeAt(fd int, name string) error {
	return os.Remove(filepath.Join(t.paths[fd], name))
}

// removeDirAt removes the empty directory name in fd.
func (t *tree) removeDirAt(fd int, name string) error { return t.removeAt(fd, name) }

// openNoFollow opens the file path for reading, failing when it is a
// link.
func openNoFollow(path string) (*os.File, error) {
	if info, err := os.Lstat(path); err != nil {
		return nil, err
	} else if info.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("open %s: %w", path, errNotDir)
	}
	return os.Open(path)
}
