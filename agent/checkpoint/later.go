package checkpoint

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Later snapshots: a snapshot that finds the state the store's previous
// one left (kept in memory, for this process only) stages without
// walking the workspace with git. It stats the directories the previous
// snapshot listed and lists again only those whose stat data changed or
// that changed close to the last listing (racy: a file system's
// timestamps are coarse); the names they gained, or whose type changed,
// are the only paths `git ls-files --others` is asked about. It stats the
// files of the shadow index and compares each with the stat data git
// recorded, as git does (mode, size, times, inode, owner), an entry not
// older than the index file itself counting as changed (git's rule for
// a racily clean entry). The changed and new paths are staged with one
// `git update-index`; when nothing changed the previous tree is the
// snapshot's, and only its commit is written.
//
// Whatever the quick pass cannot be sure of sends the snapshot down the
// full staging (stage.go): no previous state (the first snapshot, or
// one after a restore: the index file changed), a nested repository, a
// file left out for a reason other than size, a .gitignore or one of the
// user's exclude files changed or created, a .git appearing, a new file
// over MaxFileSize, more than maxCandidates new paths, more than
// maxNames entries remembered, a git command failing.

// maxNames bounds the directory entries, and the index entries, a store
// remembers between snapshots (some 100 bytes each); a workspace with
// more always takes the full staging.
const maxNames = 1 << 19

// maxCandidates is the most new paths a quick pass asks git about.
const maxCandidates = 256

// racyDir is how close to the previous listing a directory may have
// changed and still be listed again whatever its stat data says.
const racyDir = 2 * time.Second

// The file type bits of a mode as lstat gives it (the same on every
// system with lstat).
const (
	modeType    = 0o170000
	modeDir     = 0o040000
	modeRegular = 0o100000
	modeLink    = 0o120000
)

// fileKey is the stat data of a file that tells whether it changed.
type fileKey struct {
	dev, ino     uint64
	mode         uint32
	uid, gid     uint32
	size         int64
	mtime, ctime int64 // nanoseconds since the epoch
}

// dirState is one directory as the previous listing saw it: its stat
// data, taken before the listing, and its entries' names and types.
type dirState struct {
	key   fileKey
	names map[string]fs.FileMode
}

// laterState is what a snapshot leaves for the next (see Later
// snapshots).
type laterState struct {
	root    string               // the workspace, its links resolved
	index   fileKey              // the shadow index file as the snapshot left it
	sum     string               // and its checksum (its last bytes)
	ents    []indexEntry         // its entries, parsed when first needed
	tree    string               // the snapshot's tree
	skipped []Skip               // what it left out: untracked files over MaxFileSize, none other
	since   time.Time            // when its listing began
	dirs    map[string]*dirState // the workspace's directories, by slash path ("." the workspace)
	names   int                  // entries in dirs
	watch   map[string]fileKey   // the .gitignore files and the user's exclude files: a change sends the next one down the full staging
	trees   map[string][20]byte  // the trees of ents' directories, when they make tree (see laterobj.go)
	touched map[string]bool      // the paths whose entries in ents differ from the index file's (own)
}

// beginPass lists the workspace's directories for the state a full
// staging leaves; nil when it cannot (too many entries, unreadable).
func (s *Store) beginPass() *laterState {
	if s.walkSkip > 0 {
		s.walkSkip--
		return nil
	}
	root, err := filepath.EvalSymlinks(s.work)
	if err != nil {
		return nil
	}
	st := &laterState{root: root, since: time.Now(), dirs: map[string]*dirState{}, watch: map[string]fileKey{}}
	if !st.walk(root, ".") {
		if st.names > maxNames {
			s.walkSkip = walkRetry
		}
		return nil
	}
	return st
}

// walkRetry is how many full stagings run without a listing after one
// found the workspace over maxNames.
const walkRetry = 16

// stillLarge returns the files left out for size that are still
// regular files over MaxFileSize (with their size now), and false when
// one is not: it would be staged now.
func (s *Store) stillLarge(skipped []Skip) ([]Skip, bool) {
	out := make([]Skip, 0, len(skipped))
	for _, k := range skipped {
		fk, err := lstatKey(filepath.Join(s.work, filepath.FromSlash(k.Path)))
		if err != nil || fk.mode&modeType != modeRegular || fk.size <= MaxFileSize {
			return nil, false
		}
		out = append(out, Skip{Path: k.Path, Why: overCap(fk.size)})
	}
	return out, true
}

// finish keeps st as the state the next snapshot starts from, after a
// full staging that wrote tree and left out skipped (only files over
// MaxFileSize). The caller holds the lock.
func (s *Store) finish(st *laterState, tree string, skipped []Skip) {
	k, sum, err := s.indexID()
	if err != nil || !s.modesKept() {
		return
	}
	st.index, st.sum, st.tree, st.skipped, st.touched = k, sum, tree, skipped, map[string]bool{}
	for _, p := range s.userExcl {
		if p != "" {
			st.watch[p], _ = lstatKey(p) // a missing one stays missing
		}
	}
	s.last = st
}

// indexID returns the stat data of the shadow index file and its
// checksum (the last 20 bytes git writes), which together tell whether
// git wrote it since.
func (s *Store) indexID() (fileKey, string, error) {
	p := filepath.Join(s.dir, "index")
	k, err := lstatKey(p)
	if err != nil {
		return k, "", err
	}
	f, err := os.Open(p)
	if err != nil {
		return k, "", err
	}
	defer f.Close()
	var sum [20]byte
	if _, err := f.ReadAt(sum[:], k.size-int64(len(sum))); err != nil {
		return k, "", err
	}
	return k, string(sum[:]), nil
}

// modesKept reports whether the shadow repository's git records file
// modes and links as lstat gives them (core.filemode and core.symlinks
// not false, as git init sets them on a file system without them), as
// the quick pass does.
func (s *Store) modesKept() bool {
	b, err := os.ReadFile(filepath.Join(s.dir, "config"))
	if err != nil {
		return false
	}
	c := strings.ToLower(strings.ReplaceAll(string(b), " ", ""))
	return !strings.Contains(c, "filemode=false") && !strings.Contains(c, "symlinks=false")
}

// walk lists the directory d (slash path) and those below it into st,
// never entering a .git or one the git guard quarantined; false when one
// cannot be listed or st grows past maxNames.
func (st *laterState) walk(work, d string) bool {
	full := filepath.Join(work, filepath.FromSlash(d))
	k, err := lstatKey(full)
	if err != nil || k.mode&modeType != modeDir {
		return false
	}
	names, err := readNames(full)
	if err != nil {
		return false
	}
	st.dirs[d] = &dirState{key: k, names: names}
	if st.names += len(names); st.names > maxNames {
		return false
	}
	if _, ok := names[".gitignore"]; ok { // watched even where ignored itself, or in an ignored directory
		p := filepath.Join(full, ".gitignore")
		st.watch[p], _ = lstatKey(p)
	}
	for name, typ := range names {
		if typ.IsDir() && !gitName(name) && !st.walk(work, path.Join(d, name)) {
			return false
		}
	}
	return true
}

// drop forgets the directory d and those below it.
func (st *laterState) drop(d string) {
	for p, ds := range st.dirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			st.names -= len(ds.names)
			delete(st.dirs, p)
		}
	}
}

// rescan lists again the directories whose stat data changed since the
// previous listing, or that changed less than racyDir before it, and
// returns the paths they gained or whose type changed; false when the
// quick pass cannot go on (the workspace gone, a .git or .gitignore
// among the new names, too many entries).
func (st *laterState) rescan(work string) ([]string, bool) {
	cutoff := st.since.Add(-racyDir).UnixNano()
	ds := make([]string, 0, len(st.dirs))
	for d := range st.dirs {
		ds = append(ds, d)
	}
	sort.Strings(ds) // a directory before those below it
	var cand []string
	for _, d := range ds {
		old, live := st.dirs[d]
		if !live {
			continue // dropped with the directory above it
		}
		k, err := lstatKey(filepath.Join(work, filepath.FromSlash(d)))
		if err != nil || k.mode&modeType != modeDir {
			if d == "." {
				return nil, false
			}
			st.drop(d) // its parent changed too, and lists what replaced it
			continue
		}
		if k == old.key && k.mtime < cutoff && k.ctime < cutoff {
			continue
		}
		more, ok := st.relist(work, d, k)
		if !ok || len(cand)+len(more) > maxCandidates {
			return nil, false
		}
		cand = append(cand, more...)
	}
	return cand, true
}

// relist lists the directory d again (k its stat data, taken before)
// and returns the paths it gained or whose type changed, walking the
// new directories among them.
func (st *laterState) relist(work, d string, k fileKey) ([]string, bool) {
	old := st.dirs[d]
	names, err := readNames(filepath.Join(work, filepath.FromSlash(d)))
	if err != nil {
		return nil, false
	}
	var cand []string
	for name, was := range old.names {
		now, ok := names[name]
		if name == ".gitignore" && !ok {
			return nil, false
		}
		if was.IsDir() && (!ok || !now.IsDir()) {
			st.drop(path.Join(d, name))
		}
	}
	for name, typ := range names {
		if was, ok := old.names[name]; ok && was == typ {
			continue
		}
		if gitName(name) || name == ".gitignore" {
			return nil, false
		}
		p := path.Join(d, name)
		cand = append(cand, p)
		if typ.IsDir() && !st.walk(work, p) {
			return nil, false
		}
	}
	st.names += len(names) - len(old.names)
	old.key, old.names = k, names
	return cand, st.names <= maxNames
}

// gitName reports whether a directory entry is a .git or a quarantined
// one, which no snapshot takes.
func gitName(name string) bool {
	return name == ".git" || strings.HasPrefix(name, ".git.quarantined-by-tick")
}

// readNames returns the entries of the directory dir, by name, with
// their types as the directory listing gives them.
func readNames(dir string) (map[string]fs.FileMode, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	names := make(map[string]fs.FileMode, len(ents))
	for _, e := range ents {
		names[e.Name()] = e.Type()
	}
	return names, nil
}

// untracked asks git which of the paths cand (and the files below those
// that are directories) are untracked and not ignored; false when one is
// a nested repository or a file over MaxFileSize (the full staging
// handles those).
func (s *Store) untracked(ctx context.Context, cand []string) ([]string, bool) {
	if len(cand) == 0 {
		return nil, true
	}
	out, err := s.run(ctx, nil, append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, cand...)...)
	if err != nil {
		return nil, false
	}
	var fresh []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" {
			continue
		}
		if strings.HasSuffix(p, "/") || path.Base(p) == ".gitignore" {
			return nil, false
		}
		if k, err := lstatKey(filepath.Join(s.work, filepath.FromSlash(p))); err == nil && k.mode&modeType == modeRegular && k.size > MaxFileSize {
			return nil, false
		}
		fresh = append(fresh, p)
	}
	return fresh, true
}
