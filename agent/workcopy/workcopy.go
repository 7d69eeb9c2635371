// Package workcopy gives a subagent its own copy of the workspace and
// brings the copy's changes back as one patch, all or nothing.
//
// New copies the workspace's files (not its .git) to a directory outside
// it and remembers what each file was. When the workspace is a git
// repository, the copy gets a .git file naming the workspace's own, so
// that git commands in the copy see the repository (its history and
// index; a confined command cannot write it, since it lies outside the
// copy); .git entries are never part of the changes. Changes lists what the subagent
// changed in its copy. Apply brings those changes into the workspace only
// when every file they touch is still as it was when the copy was made
// (or already as the copy has it); otherwise it changes nothing and names
// the files that conflict, and the copy stays for the user. Apply never
// follows a link in the workspace: a path into git metadata or beneath a
// link refuses the whole patch (RefusedError); it stages every change,
// then renames them in, so a patch is all or nothing. GitEntries lists
// the git metadata planted in a copy, to move aside before the copy is
// handed to the user. Merge is Apply over a workspace that changed
// meanwhile: what changed on one side only is taken, a file changed on
// both is merged line by line from its content at New (kept beside the
// copy, up to MaxMergeBytes a file) with its conflicting hunks between
// markers, through the same safe path. Symbolic links
// are copied as links, never followed; other special files are left out.
// A workspace larger than MaxFiles files or MaxBytes bytes is refused
// (ErrTooLarge), so that the caller works in place instead.
package workcopy

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// The bounds of a workspace New copies.
const (
	MaxFiles = 20000
	MaxBytes = 128 << 20
)

// ErrTooLarge is returned by New for a workspace past MaxFiles or MaxBytes.
var ErrTooLarge = errors.New("the workspace is too large to copy")

// state is what one path was: a regular file's mode and content hash, or
// a link's target.
type state struct {
	mode fs.FileMode
	sum  [32]byte
	link string
}

// Copy is one copy of a workspace.
type Copy struct {
	// Dir is the copy's root.
	Dir     string
	root    string
	base    map[string]state // by slash path relative to the root
	gitfile string           // what New wrote in the copy's .git; "" none
}

// Change is one path the copy changed: Kind is "added", "modified" or
// "deleted".
type Change struct {
	Path string
	Kind string
}

// New copies the workspace root into a new directory under parent (""
// means the system's temporary directory). A root named through a
// symbolic link is copied from where the link leads.
func New(root, parent string) (*Copy, error) {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // the walk does not follow links, the root's own either
	}
	dir, err := os.MkdirTemp(parent, "tick-task-")
	if err != nil {
		return nil, fmt.Errorf("make the task's copy of %s: %w", root, err)
	}
	c := &Copy{Dir: dir, root: root, base: map[string]state{}}
	if err := os.Mkdir(c.baseDir(), 0o700); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("make the task's copy of %s: %w", root, err)
	}
	if err := c.fill(); err != nil {
		_ = c.Remove()
		return nil, err
	}
	if info, err := os.Stat(filepath.Join(root, ".git")); err == nil && info.IsDir() {
		abs, _ := filepath.Abs(filepath.Join(root, ".git"))
		c.gitfile = "gitdir: " + abs + "\n"
		if err := os.WriteFile(filepath.Join(dir, ".git"), []byte(c.gitfile), 0o644); err != nil {
			_ = c.Remove()
			return nil, fmt.Errorf("make the task's copy of %s: %w", root, err)
		}
	}
	return c, nil
}

// fill copies every file of the root into Dir.
func (c *Copy) fill() error {
	var files, size int64
	return filepath.WalkDir(c.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("copy the workspace: %w", err)
		}
		rel, _ := filepath.Rel(c.root, p)
		if rel == "." {
			return nil
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		dst := filepath.Join(c.Dir, rel)
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("copy the workspace: %w", err)
		}
		if files++; files > MaxFiles {
			return fmt.Errorf("%w: more than %d files", ErrTooLarge, MaxFiles)
		}
		switch {
		case d.IsDir():
			if err := os.Mkdir(c.baseFile(filepath.ToSlash(rel)), 0o700); err != nil {
				return fmt.Errorf("copy the workspace: %w", err)
			}
			return os.Mkdir(dst, info.Mode().Perm()|0o700)
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return fmt.Errorf("copy the workspace: %w", err)
			}
			c.base[filepath.ToSlash(rel)] = state{mode: fs.ModeSymlink, link: target}
			return os.Symlink(target, dst)
		case info.Mode().IsRegular():
			if size += info.Size(); size > MaxBytes {
				return fmt.Errorf("%w: more than %d MiB", ErrTooLarge, MaxBytes>>20)
			}
			base := ""
			if info.Size() <= MaxMergeBytes {
				base = c.baseFile(filepath.ToSlash(rel))
			}
			sum, err := copyFile(p, dst, base, info.Mode().Perm())
			if err != nil {
				return err
			}
			c.base[filepath.ToSlash(rel)] = state{mode: info.Mode().Perm(), sum: sum}
		}
		return nil
	})
}

// copyFile copies src to a new file dst (and to base, unless "": the
// content kept for a merge, its directory made) and returns the content's
// hash.
func copyFile(src, dst, base string, perm fs.FileMode) ([32]byte, error) {
	var sum [32]byte
	in, err := os.Open(src)
	if err != nil {
		return sum, fmt.Errorf("copy %s: %w", src, err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return sum, fmt.Errorf("copy %s: %w", src, err)
	}
	h := sha256.New()
	w := io.MultiWriter(out, h)
	var kept *os.File
	if base != "" {
		if kept, err = createBase(base); err != nil {
			out.Close()
			return sum, fmt.Errorf("copy %s: %w", src, err)
		}
		w = io.MultiWriter(out, h, kept)
	}
	if _, err := io.Copy(w, in); err != nil {
		out.Close()
		if kept != nil {
			kept.Close()
		}
		return sum, fmt.Errorf("copy %s: %w", src, err)
	}
	copy(sum[:], h.Sum(nil))
	if kept != nil {
		if err := kept.Close(); err != nil {
			out.Close()
			return sum, fmt.Errorf("copy %s: %w", src, err)
		}
	}
	return sum, out.Close()
}

// createBase makes the new file p, readable by its owner only (fill made
// its directory).
func createBase(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
}

// stat returns what path is now (ok false when it does not exist).
func stat(path string) (st state, ok bool, err error) {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return state{}, false, nil
	}
	if err != nil {
		return state{}, false, err
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(path)
		return state{mode: fs.ModeSymlink, link: target}, true, err
	case info.Mode().IsRegular():
		f, err := os.Open(path)
		if err != nil {
			return state{}, true, err
		}
		defer f.Close()
		st := state{mode: info.Mode().Perm()}
		st.sum, err = sumOf(f)
		return st, true, err
	}
	return state{mode: info.Mode()}, true, nil // a directory or a special file
}

// sumOf returns the SHA-256 of what r holds, read as a stream (a huge
// file costs no memory).
func sumOf(r io.Reader) ([32]byte, error) {
	var sum [32]byte
	h := sha256.New()
	_, err := io.Copy(h, r)
	copy(sum[:], h.Sum(nil))
	return sum, err
}

// now returns the current states of the copy's files.
func (c *Copy) now() (map[string]state, error) {
	cur := map[string]state{}
	err := filepath.WalkDir(c.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Name() == ".git" && d.IsDir() && p != c.Dir:
			return filepath.SkipDir
		case d.IsDir(), d.Name() == ".git": // the repository is never a change
			return nil
		}
		rel, _ := filepath.Rel(c.Dir, p)
		st, ok, err := stat(p)
		if err == nil && ok && (st.mode&fs.ModeSymlink != 0 || st.mode.IsRegular()) {
			cur[filepath.ToSlash(rel)] = st
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read the task's copy %s: %w", c.Dir, err)
	}
	return cur, nil
}

// Changes lists what the copy changed since New, sorted by path.
func (c *Copy) Changes() ([]Change, error) {
	cur, err := c.now()
	if err != nil {
		return nil, err
	}
	return c.changes(cur), nil
}

// changes lists what differs between the copy's files at New and cur,
// sorted by path.
func (c *Copy) changes(cur map[string]state) []Change {
	var out []Change
	for p, st := range cur {
		b, ok := c.base[p]
		switch {
		case !ok:
			out = append(out, Change{Path: p, Kind: "added"})
		case b != st:
			out = append(out, Change{Path: p, Kind: "modified"})
		}
	}
	for p := range c.base {
		if _, ok := cur[p]; !ok {
			out = append(out, Change{Path: p, Kind: "deleted"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Remove deletes the copy and the content New kept beside it.
func (c *Copy) Remove() error {
	err := os.RemoveAll(c.Dir)
	if berr := c.removeBase(); err == nil {
		err = berr
	}
	return err
}

// Describe lists changes as "added a.go, modified b.go", at most n named.
func Describe(changes []Change, n int) string {
	var b bytes.Buffer
	for i, ch := range changes {
		if i == n {
			fmt.Fprintf(&b, " and %d more", len(changes)-n)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(ch.Kind + " " + ch.Path)
	}
	return b.String()
}
