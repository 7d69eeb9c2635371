// Package safefile reads files that a repository supplies (instructions,
// custom commands, config files, .gitignore files) without letting the
// repository hang, exhaust or redirect tick.
//
// A file is accepted only when it is a regular file: it is opened without
// blocking (O_NONBLOCK, so a named pipe returns at once instead of waiting
// for a writer), without following a last symbolic link (its target was
// resolved and checked first) and without becoming a controlling terminal,
// and the open file is checked again with fstat, so a file swapped after
// the check is still refused. When a root is given, the path's real
// location (every symbolic link followed) must lie inside it. Reads stop
// at a cap. Everything refused is an *Error whose Reason says why
// (ErrNotRegular, ErrNotDir, ErrOutside, ErrTooLarge), so callers can skip
// the file with a notice naming it.
package safefile

import (
	"github.com/tick-agent/tick/agent/humanize"

	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The reasons a file is refused; an *Error wraps one of them.
var (
	// ErrNotRegular: a directory, named pipe, socket or device.
	ErrNotRegular = errors.New("not a regular file")
	// ErrNotDir: ReadDir found something else than a directory.
	ErrNotDir = errors.New("not a directory")
	// ErrOutside: the real path (symbolic links followed) leaves the root.
	ErrOutside = errors.New("it leads outside the directory it belongs to")
	// ErrTooLarge: the file is larger than the cap.
	ErrTooLarge = errors.New("too large")
)

// Error is a file that was refused: Path as given, Reason one of the
// errors above, Detail what was found (e.g. "a named pipe", "to
// /proc/self/environ, not in /home/u/proj", "3.0 MiB, over 256 KiB").
type Error struct {
	Path   string
	Reason error
	Detail string
}

// Error returns e.g. "skipped .tick/commands/x.md: not a regular file (a
// named pipe)".
func (e *Error) Error() string {
	msg := fmt.Sprintf("skipped %s: %v", e.Path, e.Reason)
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

// Unwrap returns the Reason, for errors.Is.
func (e *Error) Unwrap() error { return e.Reason }

// Open opens path for reading after the checks in the package comment;
// root "" skips the containment check (for the user's own files). A
// missing file is an error wrapping fs.ErrNotExist; a refused one an
// *Error. The caller closes the file.
func Open(root, path string) (*os.File, fs.FileInfo, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open %s: %w", path, err)
	}
	if root != "" {
		if err := inside(root, real, path); err != nil {
			return nil, nil, err
		}
	}
	st, err := os.Lstat(real)
	if err != nil {
		return nil, nil, fmt.Errorf("open %s: %w", path, err)
	}
	if !st.Mode().IsRegular() { // refused before open: opening a device can act
		return nil, nil, &Error{Path: path, Reason: ErrNotRegular, Detail: Kind(st.Mode())}
	}
	f, err := os.OpenFile(real, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open %s: %w", path, err)
	}
	st, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("open %s: %w", path, err)
	}
	if !st.Mode().IsRegular() { // swapped between the check and the open
		f.Close()
		return nil, nil, &Error{Path: path, Reason: ErrNotRegular, Detail: Kind(st.Mode())}
	}
	if root != "" {
		if p, ok := openedPath(f); ok { // a parent swapped for a link
			if err := inside(root, p, path); err != nil {
				f.Close()
				return nil, nil, err
			}
		}
	}
	return f, st, nil
}

// Read returns the whole content of path, opened as Open does, refusing a
// file over limit bytes with ErrTooLarge (by its size, and again by what was
// actually read, so a file that grows while read is refused too).
func Read(root, path string, limit int64) ([]byte, error) {
	f, st, err := Open(root, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, tooLarge(path, st.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(path, int64(len(b)), limit)
	}
	return b, nil
}

// ReadPrefix returns at most limit bytes of path, opened as Open does; cut
// reports that the file holds more.
func ReadPrefix(root, path string, limit int64) (b []byte, cut bool, err error) {
	f, _, err := Open(root, path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	limit = max(limit, 0)
	b, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return b[:limit], true, nil
	}
	return b, false, nil
}

// ReadDir lists at most limit entries of the directory dir (sorted by
// name; more is an ErrTooLarge), with the checks of Open: its real path
// inside root unless root is "", opened without blocking, and a
// directory (else ErrNotDir, e.g. a named pipe in its place).
func ReadDir(root, dir string, limit int) ([]fs.DirEntry, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	if root != "" {
		if err := inside(root, real, dir); err != nil {
			return nil, err
		}
	}
	st, err := os.Lstat(real)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, &Error{Path: dir, Reason: ErrNotDir, Detail: Kind(st.Mode())}
	}
	f, err := os.OpenFile(real, os.O_RDONLY|dirFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	defer f.Close()
	entries, err := f.ReadDir(limit + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	if len(entries) > limit {
		return nil, &Error{Path: dir, Reason: ErrTooLarge, Detail: fmt.Sprintf("over %d entries", limit)}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, nil
}

// inside checks that real lies in root (whose own links are resolved).
func inside(root, real, path string) error {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("open %s: resolve %s: %w", path, root, err)
	}
	rel, err := filepath.Rel(r, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return &Error{Path: path, Reason: ErrOutside, Detail: "to " + real + ", not in " + r}
	}
	return nil
}

// tooLarge is the ErrTooLarge error for a file of size bytes.
func tooLarge(path string, size, limit int64) error {
	return &Error{Path: path, Reason: ErrTooLarge, Detail: fmt.Sprintf("%s, over %s", humanize.Bytes(size), humanize.Bytes(limit))}
}

// Kind names the type of a file that is not what was wanted, for a
// message: "a named pipe", "a socket", "a directory"...
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "type " + m.Type().String()
}
