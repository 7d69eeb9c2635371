package workcopy

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/tick-agent/tick/agent/sandbox"
)

// errNotDir is what opening a directory of the workspace gives when a
// link, or something not a directory, stands on its path.
var errNotDir = errors.New("a link or a non-directory is on the path")

// errNoOpenat2 says the kernel has no openat2: walk one component at a
// time instead.
var errNoOpenat2 = errors.New("openat2 is not available")

// ErrRolledBack is Apply's error when stop came before the first change
// was in place: what was staged is removed and nothing is applied.
var ErrRolledBack = errors.New("stopped before any change was in place: rolled back, nothing was applied")

// Refusal is one path of a patch Apply refuses, and why.
type Refusal struct{ Path, Why string }

// RefusedError is Apply's error when a path of the patch would be written
// into git metadata, through a link or out of the workspace: nothing is
// applied, and the copy stays for the user.
type RefusedError struct{ Paths []Refusal }

func (e *RefusedError) Error() string {
	parts := make([]string, 0, len(e.Paths))
	for i, r := range e.Paths {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(e.Paths)-5))
			break
		}
		parts = append(parts, r.Path+" ("+r.Why+")")
	}
	return "tick refused the whole patch: " + strings.Join(parts, ", ")
}

// Apply brings the copy's changes into the workspace, all or nothing.
// Every path is opened beneath the workspace without following a link: a
// path into git metadata, or one whose directory in the workspace is a
// link or no directory (it changed kind while the task ran), refuses the
// whole patch (*RefusedError). When a file the changes touch changed in
// the workspace since New (and is not already as the copy has it),
// nothing is written and the conflicting paths are returned. Otherwise
// every new content is first staged next to its place, then renamed into
// place (the replaced files kept until all are in, to put back on a
// failure). Closing stop while staging rolls back (ErrRolledBack); once
// the renames began Apply finishes. It returns the changes applied.
func (c *Copy) Apply(stop <-chan struct{}) (applied []Change, conflicts []string, err error) {
	cur, err := c.now()
	if err != nil {
		return nil, nil, err
	}
	t, err := openTree(c.root)
	if err != nil {
		return nil, nil, err
	}
	defer t.close()
	todo, conflicts, err := c.check(t, cur)
	if err != nil || len(conflicts) > 0 {
		return nil, conflicts, err
	}
	p := &patch{c: c, t: t, todo: todo, stop: stop}
	if err := p.apply(); err != nil {
		return nil, nil, err
	}
	for _, s := range todo {
		applied = append(applied, s.Change)
	}
	return applied, nil, nil
}

// check sorts the copy's changes into those to apply and the paths that
// conflict, or refuses the patch.
func (c *Copy) check(t *tree, cur map[string]state) (todo []*step, conflicts []string, err error) {
	var refused []Refusal
	for _, ch := range c.changes(cur) {
		at, err := c.place(t, ch, cur)
		switch {
		case err != nil:
			return nil, nil, err
		case at.why != "":
			refused = append(refused, Refusal{ch.Path, at.why})
		case at.side == sideCopy:
			todo = append(todo, &step{Change: ch, existed: at.ok, mode: cur[ch.Path].mode})
		case at.side == sideBoth:
			conflicts = append(conflicts, ch.Path)
		}
	}
	if len(refused) > 0 {
		return nil, nil, &RefusedError{Paths: refused}
	}
	return todo, conflicts, nil
}

// Where a change of the copy stands against the workspace.
const (
	sideSame = iota // the workspace already has it as the copy has it
	sideCopy        // the workspace still has it as at New: the copy's change applies
	sideBoth        // changed on both sides (or gone from the copy and changed in the workspace)
)

// placed is where one change of the copy lands in the workspace: what
// the workspace has there (was; ok false when nothing) and how that
// stands (side), or why the whole patch is refused (why).
type placed struct {
	was  state
	ok   bool
	side int
	why  string
}

// place looks ch up in the workspace for Apply and Merge alike: a path
// into git metadata, or beneath a link or a non-directory, is refused.
func (c *Copy) place(t *tree, ch Change, cur map[string]state) (placed, error) {
	if sandbox.InGitMeta(ch.Path) {
		return placed{why: "git metadata"}, nil
	}
	was, ok, err := t.lookup(ch.Path)
	if errors.Is(err, errNotDir) {
		return placed{why: "a link or a non-directory stands on its path in the workspace"}, nil
	}
	if err != nil {
		return placed{}, fmt.Errorf("check %s in the workspace: %w", ch.Path, err)
	}
	at := placed{was: was, ok: ok, side: sideBoth}
	b, inBase := c.base[ch.Path]
	want, inCopy := cur[ch.Path]
	switch {
	case ok == inCopy && (!ok || was == want):
		at.side = sideSame
	case ok == inBase && (!ok || was == b):
		at.side = sideCopy
	}
	return at, nil
}

// lookup returns what the slash path rel is in the workspace, never
// following a link (errNotDir when one stands on its directory's path).
func (t *tree) lookup(rel string) (state, bool, error) {
	fd, err := t.dir(path.Dir(rel), false, nil)
	if errors.Is(err, fs.ErrNotExist) {
		return state{}, false, nil
	}
	if err != nil {
		return state{}, false, err
	}
	return t.lstatAt(fd, path.Base(rel))
}

// step is one change of a patch and how far it went.
type step struct {
	Change
	existed bool        // the workspace had the path
	mode    fs.FileMode // the copy's (fs.ModeSymlink for a link)
	staged  string      // the staged name next to the path, "" before
	aside   string      // where the replaced entry waits, "" when none
	placed  bool        // the staged entry is in place
	content []byte      // what to write instead of the copy's file, when own
	own     bool        // content is the new file (a merge's), not the copy's
}

// patch is one Apply's work.
type patch struct {
	c     *Copy
	t     *tree
	todo  []*step
	stop  <-chan struct{}
	token string
	made  []string // directories made, in order
}

// apply stages every change, then puts them in place, rolling back on a
// failure or a stop before the renames.
func (p *patch) apply() error {
	var b [6]byte
	_, _ = rand.Read(b[:])
	p.token = hex.EncodeToString(b[:])
	for i, s := range p.todo {
		select {
		case <-p.stop:
			p.rollback()
			return ErrRolledBack
		default:
		}
		if err := p.stage(i, s); err != nil {
			p.rollback()
			return fmt.Errorf("apply the task's change to %s: %w (rolled back: nothing was applied)", s.Path, err)
		}
	}
	for i, s := range p.todo {
		if err := p.place(i, s); err != nil {
			p.rollback()
			return fmt.Errorf("apply the task's change to %s: %w (rolled back: nothing was applied)", s.Path, err)
		}
	}
	for _, s := range p.todo {
		if s.aside != "" {
			fd, _ := p.t.dir(path.Dir(s.Path), false, nil)
			_ = p.t.removeAt(fd, s.aside)
		}
	}
	return nil
}

// stage writes the copy's content of s next to its place.
func (p *patch) stage(i int, s *step) error {
	if s.Kind == "deleted" {
		return nil
	}
	fd, err := p.t.dir(path.Dir(s.Path), true, &p.made)
	if err != nil {
		return err
	}
	name := fmt.Sprintf(".tick-task-%s-%d", p.token, i)
	if s.own {
		return p.stageOwn(fd, name, s)
	}
	src := filepath.Join(p.c.Dir, filepath.FromSlash(s.Path))
	if s.mode&fs.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err == nil {
			err = p.t.symlinkAt(fd, target, name)
		}
		if err == nil {
			s.staged = name
		}
		return err
	}
	in, err := openNoFollow(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := p.t.createAt(fd, name, s.mode)
	if err != nil {
		return err
	}
	s.staged = name
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// stageOwn writes s's own content (a merge's) as name in the directory fd.
func (p *patch) stageOwn(fd int, name string, s *step) error {
	out, err := p.t.createAt(fd, name, s.mode)
	if err != nil {
		return err
	}
	s.staged = name
	_, err = out.Write(s.content)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// place moves what the workspace has at s aside and the staged entry in.
func (p *patch) place(i int, s *step) error {
	fd, err := p.t.dir(path.Dir(s.Path), false, nil)
	if err != nil {
		return err
	}
	base := path.Base(s.Path)
	if s.existed {
		aside := fmt.Sprintf(".tick-undo-%s-%d", p.token, i)
		if err := p.t.renameAt(fd, base, aside); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		} else if err == nil {
			s.aside = aside
		}
	}
	if s.staged == "" {
		return nil
	}
	if err := p.t.renameAt(fd, s.staged, base); err != nil {
		return err
	}
	s.placed = true
	return nil
}

// rollback puts back what place moved, removes what was staged and the
// directories made, newest first.
func (p *patch) rollback() {
	for i := len(p.todo) - 1; i >= 0; i-- {
		s := p.todo[i]
		fd, err := p.t.dir(path.Dir(s.Path), false, nil)
		if err != nil {
			continue
		}
		base := path.Base(s.Path)
		if s.placed {
			_ = p.t.removeAt(fd, base)
		} else if s.staged != "" {
			_ = p.t.removeAt(fd, s.staged)
		}
		if s.aside != "" {
			_ = p.t.renameAt(fd, s.aside, base)
		}
	}
	for i := len(p.made) - 1; i >= 0; i-- {
		rel := p.made[i]
		if fd, err := p.t.dir(path.Dir(rel), false, nil); err == nil {
			_ = p.t.removeDirAt(fd, path.Base(rel))
		}
	}
}
