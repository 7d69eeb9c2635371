// Package mention serves @ mentions of workspace files: an Index of the
// workspace's files built by a walk in the background (respecting
// .gitignore files and skipping version-control and dependency trees), a
// fuzzy Match over it for the picker, and Expand, which attaches the
// content of each mentioned file (or the listing of a directory) to a
// prompt.
//
// Every file read here comes from the repository, so it is read through
// safefile: a .gitignore or mentioned file must be a regular file (opened
// without blocking, so a named pipe cannot hang the walk or a prompt),
// inside the workspace, and is read with a cap. A .gitignore that is
// refused is left out of the rules (Index.Skipped names it); a mentioned
// file that is refused is not attached.
package mention

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tick-agent/tick/agent/internal/safefile"
)

// MaxFiles caps the index; a larger tree is indexed in part.
const MaxFiles = 500_000

// MaxIgnoreBytes caps one .gitignore file; a larger one is skipped.
const MaxIgnoreBytes = 1 << 20

// skipDirs are trees never indexed, ignored or not: version control and
// dependency or cache directories.
func skipDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox",
		".mypy_cache", ".pytest_cache", ".ruff_cache", ".next", ".nuxt", ".cache", ".gradle", ".idea", "bower_components":
		return true
	}
	return false
}

// Index is the workspace's files, relative to the root with forward
// slashes, in walk order. The walk runs in its own goroutine; Paths may be
// called at any time and returns what was found so far.
type Index struct {
	root string

	mu      sync.Mutex
	paths   []string
	done    bool
	skipped []string // .gitignore files refused, with the reason
}

// NewIndex starts indexing root (absolute) and returns at once.
func NewIndex(root string) *Index {
	ix := &Index{root: root}
	go ix.walk()
	return ix
}

// Lazy returns a file source for the @ picker: its first call starts
// indexing root (absolute), every call returns Paths. Nothing is walked
// until someone asks. Safe for concurrent use.
func Lazy(root string) func() ([]string, bool) {
	var once sync.Once
	var ix *Index
	return func() ([]string, bool) {
		once.Do(func() { ix = NewIndex(root) })
		return ix.Paths()
	}
}

// Paths returns the files found so far and whether the walk has finished.
// The slice is shared: callers must not modify it.
func (ix *Index) Paths() ([]string, bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.paths[:len(ix.paths):len(ix.paths)], ix.done
}

// Skipped returns why each .gitignore file the walk refused so far was
// left out (e.g. "skipped /w/.gitignore: not a regular file (a named
// pipe)"); its patterns did not apply.
func (ix *Index) Skipped() []string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return append([]string(nil), ix.skipped...)
}

// batch is how many paths the walk collects before publishing them.
const batch = 2048

// walk indexes the tree, publishing paths in batches.
func (ix *Index) walk() {
	var pending []string
	count := 0
	publish := func(done bool) {
		ix.mu.Lock()
		ix.paths = append(ix.paths, pending...)
		ix.done = done
		ix.mu.Unlock()
		pending = pending[:0]
	}
	rules := map[string]*ignoreSet{} // by directory, relative ("" for the root)
	_ = filepath.WalkDir(ix.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && path != ix.root {
				return fs.SkipDir
			}
			return nil
		}
		rel, rerr := filepath.Rel(ix.root, path)
		if rerr != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rules[""] = ix.loadIgnore(ix.root, "", nil)
			return nil
		}
		dir := parentOf(rel)
		parent := rules[dir]
		if d.IsDir() {
			if skipDir(d.Name()) || parent.ignored(rel, true) {
				return fs.SkipDir
			}
			rules[rel] = ix.loadIgnore(path, rel, parent)
			return nil
		}
		if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		if parent.ignored(rel, false) {
			return nil
		}
		pending = append(pending, rel)
		count++
		if len(pending) >= batch {
			publish(false)
		}
		if count >= MaxFiles {
			return filepath.SkipAll
		}
		return nil
	})
	publish(true)
}

// parentOf returns the directory part of a slash path, "" at the top.
func parentOf(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// loadIgnore reads dir's .gitignore (dir is absolute, rel its path in the
// tree) on top of the parent's rules; one that safefile refuses is
// recorded in Skipped and left out.
func (ix *Index) loadIgnore(dir, rel string, parent *ignoreSet) *ignoreSet {
	path := filepath.Join(dir, ".gitignore")
	if _, err := os.Lstat(path); err != nil {
		return parent // most directories have none: one syscall
	}
	data, err := safefile.Read(ix.root, path, MaxIgnoreBytes)
	var refused *safefile.Error
	if errors.As(err, &refused) {
		ix.mu.Lock()
		ix.skipped = append(ix.skipped, err.Error())
		ix.mu.Unlock()
	}
	if err != nil || len(data) == 0 {
		return parent
	}
	return parent.with(rel, string(data))
}
