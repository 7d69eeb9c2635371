package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// quarantineSuffix is added to the name of a .git entry moved aside: git
// looks for .git only, so the entry is inert where it is.
const quarantineSuffix = ".quarantined-by-tick"

// Quarantined is a .git entry moved aside (see Quarantine).
type Quarantined struct {
	Path  string // workspace-relative, slash-separated: where it was
	Aside string // workspace-relative: where it is now
	root  string
}

// Quarantine moves each .git entry of rels (workspace-relative paths
// under root), or protected path a command created (see
// Runner.GitChanges), aside, to a name next to it that git ignores (and
// tick: a .tick moved aside is no project directory), and returns
// those it moved. It does not follow a symbolic link in the last element
// (a link named .git is moved itself), and refuses a path that is not
// local or whose directory is reached through a link: a command that
// replaced a directory by a link would have tick move (and remove) a
// file outside the workspace. The first failure ends it, with the
// entries moved so far.
func Quarantine(root string, rels []string) ([]Quarantined, error) {
	var out []Quarantined
	for _, rel := range rels {
		if err := linkFree(root, rel); err != nil {
			return out, fmt.Errorf("move %s aside: %w", rel, err)
		}
		from := filepath.Join(root, filepath.FromSlash(rel))
		aside, err := freeName(from + quarantineSuffix)
		if err != nil {
			return out, fmt.Errorf("move %s aside: %w", rel, err)
		}
		if err := os.Rename(from, aside); err != nil {
			return out, fmt.Errorf("move %s aside: %w", rel, err)
		}
		r, _ := filepath.Rel(root, aside)
		out = append(out, Quarantined{Path: rel, Aside: filepath.ToSlash(r), root: root})
	}
	return out, nil
}

// linkFree returns an error unless the slash-separated rel is local and
// its directory, under root, is reached without a symbolic link.
func linkFree(root, rel string) error {
	rel = filepath.FromSlash(rel)
	if !filepath.IsLocal(rel) {
		return errors.New("not a path inside the workspace")
	}
	dir := filepath.Dir(rel)
	if dir == "." {
		return nil
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(filepath.Join(realRoot, dir))
	if err != nil {
		return err
	}
	if real != filepath.Join(realRoot, dir) {
		return errors.New("a symbolic link stands on its path")
	}
	return nil
}

// freeName returns base, or base.N for the first N that names nothing.
func freeName(base string) (string, error) {
	name := base
	for n := 2; n < 1000; n++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name, nil
		}
		name = base + "." + strconv.Itoa(n)
	}
	return "", fmt.Errorf("no free name beside %s", base)
}

// Restore puts the entry back where it was, unless something else took
// that name meanwhile.
func (q Quarantined) Restore() error {
	to := filepath.Join(q.root, filepath.FromSlash(q.Path))
	if _, err := os.Lstat(to); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("put %s back: something else is there now", q.Path)
	}
	if err := os.Rename(filepath.Join(q.root, filepath.FromSlash(q.Aside)), to); err != nil {
		return fmt.Errorf("put %s back: %w", q.Path, err)
	}
	return nil
}

// Remove deletes the entry moved aside.
func (q Quarantined) Remove() error {
	if err := os.RemoveAll(filepath.Join(q.root, filepath.FromSlash(q.Aside))); err != nil {
		return fmt.Errorf("remove %s: %w", q.Aside, err)
	}
	return nil
}
