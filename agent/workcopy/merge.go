package workcopy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// MaxMergeBytes is the largest file Merge merges line by line: New keeps
// the content of every regular file up to this size beside the copy (the
// base of the merge), and a larger file changed on both sides refuses the
// merge.
const MaxMergeBytes = 1 << 20

// Merged is a file changed both in the workspace and by the task that
// Merge merged line by line; Conflicts is the number of hunks written
// between conflict markers (MarkCurrent, MarkSplit, MarkTask).
type Merged struct {
	Path      string
	Conflicts int
}

// MergeResult is what Merge did: the changes applied whole (the
// workspace still had the file as at New), the files merged line by
// line, and the files the task deleted that changed in the workspace
// meanwhile, left as they are.
type MergeResult struct {
	Applied []Change
	Merged  []Merged
	Kept    []string
}

// Merge brings the copy's changes into the workspace over what changed
// there since New, all or nothing, through the same safe path as Apply
// (no link followed, nothing into git metadata, every change staged then
// renamed in). A change whose file the workspace still has as at New is
// applied whole; a file changed on both sides is merged line by line
// (merge3), its conflicting hunks between markers; a file the task
// deleted but the workspace changed is left (Kept). A file changed on
// both sides that cannot be merged by lines (binary, a link or not a
// regular file on one side, larger than MaxMergeBytes, its base not
// kept) refuses the whole merge with a RefusedError saying why, as a
// path into git metadata or beneath a link does. stop is as Apply's.
func (c *Copy) Merge(stop <-chan struct{}) (MergeResult, error) {
	cur, err := c.now()
	if err != nil {
		return MergeResult{}, err
	}
	t, err := openTree(c.root)
	if err != nil {
		return MergeResult{}, err
	}
	defer t.close()
	res, todo, err := c.plan(t, cur)
	if err != nil {
		return MergeResult{}, err
	}
	p := &patch{c: c, t: t, todo: todo, stop: stop}
	if err := p.apply(); err != nil {
		return MergeResult{}, err
	}
	return res, nil
}

// plan sorts the copy's changes for Merge: the steps to write and what
// each is, or the refusal of the whole merge.
func (c *Copy) plan(t *tree, cur map[string]state) (MergeResult, []*step, error) {
	var res MergeResult
	var todo []*step
	var refused []Refusal
	for _, ch := range c.changes(cur) {
		at, err := c.place(t, ch, cur)
		if err != nil {
			return res, nil, err
		}
		want, inCopy := cur[ch.Path]
		switch {
		case at.why != "":
			refused = append(refused, Refusal{ch.Path, at.why})
		case at.side == sideSame:
		case at.side == sideCopy:
			todo = append(todo, &step{Change: ch, existed: at.ok, mode: want.mode})
			res.Applied = append(res.Applied, ch)
		case !inCopy:
			res.Kept = append(res.Kept, ch.Path)
		default:
			s, n, why := c.mergeFile(t, ch.Path, at.was, at.ok, want)
			if why != "" {
				refused = append(refused, Refusal{ch.Path, why})
				continue
			}
			todo = append(todo, s)
			res.Merged = append(res.Merged, Merged{Path: ch.Path, Conflicts: n})
		}
	}
	if len(refused) > 0 {
		return res, nil, &RefusedError{Paths: refused}
	}
	return res, todo, nil
}

// mergeFile merges rel, changed in the workspace (was; ok false when it
// is gone there) and in the copy (want), from its content at New: the
// step writing the merged text and its conflicting hunks, or why it
// cannot be merged by lines.
func (c *Copy) mergeFile(t *tree, rel string, was state, ok bool, want state) (*step, int, string) {
	const whole = ": compare it by hand"
	if want.mode&fs.ModeSymlink != 0 || (ok && !was.mode.IsRegular()) {
		return nil, 0, "changed on both sides and a link or not a regular file on one" + whole
	}
	var base []byte
	if b, inBase := c.base[rel]; inBase && b.mode&fs.ModeSymlink == 0 { // a link before: both sides made a file
		var err error
		if base, err = readBounded(c.baseFile(rel)); err != nil {
			return nil, 0, "changed on both sides and " + err.Error() + whole
		}
	}
	var cur []byte
	if ok {
		var err error
		if cur, err = t.readFile(rel); err != nil {
			return nil, 0, "changed on both sides and " + err.Error() + whole
		}
	}
	task, err := readBounded(filepath.Join(c.Dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, 0, "changed on both sides and " + err.Error() + whole
	}
	if IsBinary(base) || IsBinary(cur) || IsBinary(task) {
		return nil, 0, "a binary file changed on both sides: tick cannot mark its conflicts" + whole
	}
	out, n, fits := merge3(string(base), string(cur), string(task))
	if !fits {
		return nil, 0, "changed on both sides too differently to match its lines" + whole
	}
	mode := want.mode
	if ok {
		mode = was.mode
	}
	return &step{Change: Change{Path: rel, Kind: "merged"}, existed: ok, mode: mode, content: []byte(out), own: true}, n, ""
}

// errTooLarge is readBounded's error past MaxMergeBytes.
var errTooLarge = fmt.Errorf("is larger than %d KiB", MaxMergeBytes>>10)

// readBounded reads the file p, never through a link at its end, up to
// MaxMergeBytes.
func readBounded(p string) ([]byte, error) {
	f, err := openNoFollow(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("its content before the task (larger than %d KiB) was not kept", MaxMergeBytes>>10)
		}
		return nil, fmt.Errorf("could not be read (%w)", err)
	}
	defer f.Close()
	return readAllBounded(f)
}

// readAllBounded reads r up to MaxMergeBytes (errTooLarge past it).
func readAllBounded(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxMergeBytes+1))
	if err != nil {
		return nil, fmt.Errorf("could not be read (%w)", err)
	}
	if len(b) > MaxMergeBytes {
		return nil, errTooLarge
	}
	return b, nil
}

// readFile reads the workspace's regular file rel without following a
// link, up to MaxMergeBytes.
func (t *tree) readFile(rel string) ([]byte, error) {
	fd, err := t.dir(path.Dir(rel), false, nil)
	if err != nil {
		return nil, fmt.Errorf("could not be read (%w)", err)
	}
	f, err := t.openRead(fd, path.Base(rel))
	if err != nil {
		return nil, fmt.Errorf("could not be read (%w)", err)
	}
	defer f.Close()
	return readAllBounded(f)
}

// baseFile is where New kept rel's content (see MaxMergeBytes).
func (c *Copy) baseFile(rel string) string {
	return filepath.Join(c.baseDir(), filepath.FromSlash(rel))
}

// baseDir is the directory beside Dir holding the copied files' content
// at New, for Merge: outside the copy, so the task cannot change it.
func (c *Copy) baseDir() string {
	return filepath.Join(filepath.Dir(c.Dir), ".base-"+filepath.Base(c.Dir))
}

// BaseContent returns rel's content when New copied it (ok false when
// the file was not there, was a link, or was larger than MaxMergeBytes),
// for showing the task's patch.
func (c *Copy) BaseContent(rel string) ([]byte, bool) {
	if b, in := c.base[rel]; !in || b.mode&fs.ModeSymlink != 0 {
		return nil, false
	}
	b, err := readBounded(c.baseFile(rel))
	return b, err == nil
}

// removeBase removes what New kept beside the copy.
func (c *Copy) removeBase() error { return os.RemoveAll(c.baseDir()) }

// Content returns the copy's file rel as the task left it, never through
// a link, up to MaxMergeBytes (ok false otherwise), for showing the
// task's patch.
func (c *Copy) Content(rel string) ([]byte, bool) {
	b, err := readBounded(filepath.Join(c.Dir, filepath.FromSlash(rel)))
	return b, err == nil
}
