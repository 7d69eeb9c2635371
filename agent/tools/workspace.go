package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks bounds the symlinks followed while resolving one path, as the
// kernel's ELOOP limit does.
const maxLinks = 40

// Workspace is the directory the tools work in. File paths given to the
// tools resolve inside it, and paths that lead out of it are refused. A
// Workspace is immutable and safe for concurrent use.
type Workspace struct {
	root string // absolute, symlinks evaluated, cleaned
}

// NewWorkspace returns the workspace rooted at root, which must be an
// existing directory. The root is made absolute and its symlinks are
// evaluated, so Root is the directory's real path.
func NewWorkspace(root string) (*Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open workspace %q: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("open workspace %q: %w", root, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("open workspace %q: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("open workspace %q: %s is not a directory", root, real)
	}
	return &Workspace{root: filepath.Clean(real)}, nil
}

// Root returns the workspace's absolute real path.
func (w *Workspace) Root() string { return w.root }

// OutsideError is returned by Resolve for a path that leads out of the
// workspace.
type OutsideError struct {
	Path     string // the path as given
	Root     string // the workspace root
	Resolved string // where the path really leads
	Symlink  bool   // true when a symlink leads out
}

// Error returns e.g. `path "../x" is outside the workspace /home/u/proj`.
func (e *OutsideError) Error() string {
	msg := fmt.Sprintf("path %q is outside the workspace %s", e.Path, e.Root)
	if e.Symlink {
		msg += fmt.Sprintf(" (a symlink leads to %s)", e.Resolved)
	}
	return msg
}

// Resolve returns the real absolute path that path names. A relative path
// is taken relative to the root; an absolute path must lie inside it.
// Symlinks anywhere in the path, the last element included, are followed;
// for a path that does not exist yet, its nearest existing parent decides.
// A path that leads outside the workspace yields an *OutsideError; an empty
// path or one with a NUL byte is an error too. The file need not exist.
func (w *Workspace) Resolve(path string) (string, error) {
	if path == "" {
		return "", errors.New("resolve path: the path is empty")
	}
	if strings.ContainsRune(path, 0) {
		return "", fmt.Errorf("resolve path %q: the path contains a NUL byte", path)
	}
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.root, p)
	}
	p = filepath.Clean(p)
	real, linked, err := realPath(p)
	if err != nil {
		return "", fmt.Errorf("resolve path %q: %w", path, err)
	}
	if !w.contains(real) {
		return "", &OutsideError{Path: path, Root: w.root, Resolved: real, Symlink: linked && w.contains(p)}
	}
	return real, nil
}

// Rel returns abs relative to the root for display ("." for the root
// itself), or abs unchanged when it is outside the workspace.
func (w *Workspace) Rel(abs string) string {
	if !w.contains(abs) {
		return abs
	}
	rel, err := filepath.Rel(w.root, abs)
	if err != nil {
		return abs
	}
	return rel
}

// contains reports whether the clean absolute path p is the root or lies
// under it.
func (w *Workspace) contains(p string) bool {
	if p == w.root {
		return true
	}
	prefix := w.root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(p, prefix)
}

// realPath resolves every symlink in the clean absolute path p, element by
// element, the way the kernel would. Elements that do not exist are kept
// as they are, so the result for a new file is its nearest existing
// parent's real path joined with the rest. linked reports whether any
// symlink was followed.
func realPath(p string) (real string, linked bool, err error) {
	vol := filepath.VolumeName(p)
	rest := splitPath(p[len(vol):])
	cur := vol + string(filepath.Separator)
	hops := 0
	for len(rest) > 0 {
		elem := rest[0]
		rest = rest[1:]
		switch elem {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, elem)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			// Nothing below a missing element can be a symlink yet.
			return filepath.Join(append([]string{next}, rest...)...), linked, nil
		}
		if err != nil {
			return "", linked, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		hops++
		if hops > maxLinks {
			return "", linked, fmt.Errorf("too many levels of symbolic links at %s", next)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", linked, err
		}
		linked = true
		if filepath.IsAbs(target) {
			tv := filepath.VolumeName(target)
			cur = tv + string(filepath.Separator)
			target = target[len(tv):]
		}
		rest = append(splitPath(target), rest...)
	}
	return cur, linked, nil
}

// splitPath splits p into its elements.
func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == filepath.Separator || r == '/' })
}
