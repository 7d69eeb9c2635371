package sandbox

import (
	"errors"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// GitMetaName is the name git looks for when it discovers a repository: a
// directory (a repository's metadata) or a file (`gitdir: PATH`, a
// submodule's or a worktree's). Whatever such an entry's config says, the
// user's own git runs (core.fsmonitor, core.hooksPath, core.pager, filter
// drivers, aliases), outside any sandbox.
const GitMetaName = ".git"

// InGitMeta reports whether the slash-separated workspace-relative path
// rel is a .git entry or lies inside one, at any depth (a nested
// repository's or a submodule's too). The file tools and the sandbox use
// this one predicate.
func InGitMeta(rel string) bool {
	for _, elem := range strings.Split(rel, "/") {
		if elem == GitMetaName {
			return true
		}
	}
	return false
}

// Bounds of the watch: directories followed, their depth, and the .git
// entries made read-only for one command (the list travels in the
// helper's arguments, which the kernel caps at 128 KiB).
const (
	maxWatchDirs = 100_000
	// maxWatchDepth only keeps a path within PATH_MAX: a deeper .git is
	// no more out of the user's reach than a shallow one.
	maxWatchDepth   = 2048
	maxProtect      = 1000
	maxProtectBytes = 64 << 10
	maxMetaRead     = 256 << 10
	// racyWindow: a directory whose change time is this close to the
	// scan that stamped it is read again by the next scan, since a change
	// within the file system's time granularity would not show.
	racyWindow = time.Second
)

// dirStamp is what tells a directory changed: its inode and change time
// (which no process can set back; touch changes it too).
type dirStamp struct {
	dev, ino uint64
	ctime    int64
	racy     bool
}

// entID is a .git entry's identity: where it lives and what it says. An
// entry found again with the same identity, wherever it now is, is not
// new (a directory holding a repository was renamed).
type entID struct {
	dev, ino uint64
	kind     fs.FileMode
	sum      uint64
}

// GitReport is what a command did to the git metadata of the workspace,
// as GitMeta.After found it. Paths are workspace-relative, slash-separated.
type GitReport struct {
	// Planted are .git entries that are new or were replaced or changed:
	// the user's git would trust them.
	Planted []string
	// Changed are existing .git directories whose config or hooks changed
	// in place (possible only where the sandbox cannot make them
	// read-only: no namespaces).
	Changed []string
	// Over is set, once, when the workspace exceeds the watch's bounds:
	// directories past them are not watched.
	Over bool
}

// Empty reports whether r has nothing to say.
func (r GitReport) Empty() bool { return len(r.Planted) == 0 && len(r.Changed) == 0 && !r.Over }

// GitMeta watches the .git entries under a workspace between the start and
// the end of a command. The first scan walks the tree once; later scans
// read again only the directories that changed. Which changed, the kernel
// says where it can (inotify on Linux: a scan then costs what changed);
// elsewhere, or when the kernel refuses a watch or drops events, a scan
// stats every directory it knows and reads again those whose inode or
// change time moved (one lstat per directory). Symbolic
// links are not followed and .git directories are not entered. Its
// methods are safe for concurrent use; Before and After bracket one
// command at a time.
type GitMeta struct {
	root    string
	limit   int // directories watched at most
	watches int // inotify watches held at most; 0: a share of the user's

	mu       sync.Mutex
	built    bool
	dirs     map[string]dirStamp // by workspace-relative path; "." is the root
	ents     map[string]bool     // the .git entries found
	base     map[entID]bool      // identities at Before
	baseAt   map[string]entID    // identities at Before, by path
	watching bool                // Before was called, After not yet
	over     bool                // the bounds were hit
	told     bool                // After reported Over
	notify   *dirNotify          // which directories changed; nil: stat them all
}

// NewGitMeta returns the watch of the workspace root (absolute; the
// first scan follows its own symbolic links). It costs nothing until the
// first Before.
func NewGitMeta(root string) *GitMeta {
	return &GitMeta{root: filepath.Clean(root), limit: maxWatchDirs}
}

// Close releases what the watch holds of the kernel (its inotify watches,
// one per directory); a GitMeta that is garbage releases them too, later.
// After Close, scans stat every directory.
func (g *GitMeta) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.notify != nil {
		g.notify.close()
		g.notify = nil
	}
}

// Before brings the watch up to date (whatever changed since the last
// command is taken as the user's doing) and returns the paths to make
// read-only for the command: the .git entries, and what those that are
// symbolic links or gitfiles point to inside the workspace, bounded by
// maxProtect and maxProtectBytes.
func (g *GitMeta) Before() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.rescan()
	g.base, g.baseAt = map[entID]bool{}, map[string]entID{}
	var out []string
	size := 0
	for _, rel := range g.sorted() {
		id, target := g.identify(rel)
		g.base[id] = true
		g.baseAt[rel] = id
		for _, p := range []string{rel, target} {
			if p == "" || len(out) >= maxProtect || size+len(p) > maxProtectBytes {
				continue
			}
			out = append(out, p)
			size += len(p) + 4
		}
	}
	g.watching = true
	return out
}

// After scans again, once per Before, and reports the .git entries that
// appeared or changed since; nothing when no command was watched.
func (g *GitMeta) After() GitReport {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.watching {
		return GitReport{}
	}
	g.watching = false
	g.rescan()
	var r GitReport
	for _, rel := range g.sorted() {
		id, _ := g.identify(rel)
		if g.base[id] {
			continue // unchanged, perhaps moved with its directory
		}
		if old, ok := g.baseAt[rel]; ok && id.kind.IsDir() && old.kind.IsDir() && old.dev == id.dev && old.ino == id.ino {
			r.Changed = append(r.Changed, rel)
			continue
		}
		r.Planted = append(r.Planted, rel)
	}
	if g.over && !g.told {
		r.Over, g.told = true, true
	}
	return r
}

// sorted returns the .git entries found, sorted.
func (g *GitMeta) sorted() []string {
	out := make([]string, 0, len(g.ents))
	for rel := range g.ents {
		out = append(out, rel)
	}
	sort.Strings(out)
	return out
}

// abs returns the absolute path of the workspace-relative rel.
func (g *GitMeta) abs(rel string) string { return filepath.Join(g.root, filepath.FromSlash(rel)) }

// rescan brings dirs and ents up to date: a walk of the whole tree the
// first time, then a read of the directories that changed.
func (g *GitMeta) rescan() {
	start := time.Now()
	if !g.built {
		if real, err := filepath.EvalSymlinks(g.root); err == nil {
			g.root = real // named through a link (cd ~/src/app): the walk does not follow links
		}
		g.dirs, g.ents = map[string]dirStamp{}, map[string]bool{}
		g.notify = newDirNotify(g, g.watches)
		g.walk(".", start)
		g.built = true
		return
	}
	changed := g.changedDirs(start)
	reread := make(map[string]bool, len(changed))
	for _, rel := range changed {
		reread[rel] = true
	}
	for rel := range g.ents {
		dir := path.Dir(rel)
		if _, ok := g.dirs[dir]; !ok || reread[dir] {
			delete(g.ents, rel) // its directory is gone, or read again below
		}
	}
	for rel := range reread {
		if _, ok := g.dirs[rel]; ok {
			g.read(rel, start, nil)
		}
	}
}

// changedDirs returns the known directories that changed since the last
// scan (perhaps some twice), forgetting those that are gone: as the kernel
// told them, else by a stat of each.
func (g *GitMeta) changedDirs(start time.Time) []string {
	if g.notify != nil {
		changed, dropped, ok := g.notify.drain()
		if ok {
			g.forgetTrees(dropped)
			return changed
		}
	}
	var changed []string
	for rel, old := range g.dirs {
		st, ok := stampDir(g.abs(rel), start)
		switch {
		case !ok:
			g.forget(rel)
		case old.racy || st.dev != old.dev || st.ino != old.ino || st.ctime != old.ctime:
			changed = append(changed, rel)
		}
	}
	return changed
}

// forgetTrees forgets the known directories at or below each of roots, so
// that reading their parents walks them again as new.
func (g *GitMeta) forgetTrees(roots []string) {
	if len(roots) == 0 {
		return
	}
	drop := make(map[string]bool, len(roots))
	for _, r := range roots {
		if _, known := g.dirs[r]; known {
			drop[r] = true // a new directory has no tree to forget
		}
	}
	if len(drop) == 0 {
		return
	}
	for rel := range g.dirs {
		for p := rel; ; p = path.Dir(p) {
			if drop[p] {
				g.forget(rel)
				break
			}
			if p == "." || p == "/" {
				break
			}
		}
	}
}

// forget stops knowing the directory rel.
func (g *GitMeta) forget(rel string) {
	delete(g.dirs, rel)
	if g.notify != nil {
		g.notify.remove(rel)
	}
}

// watch asks the kernel to tell the changes of the directory rel; when it
// refuses, scans stat every directory from now on.
func (g *GitMeta) watch(rel string) {
	if g.notify != nil && !g.notify.add(g.abs(rel), rel) {
		g.notify.close()
		g.notify = nil
	}
}

// walk records the tree under the workspace-relative directory rel.
func (g *GitMeta) walk(rel string, start time.Time) {
	stack := []string{rel}
	for len(stack) > 0 {
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		g.read(dir, start, &stack)
	}
}

// read stamps the directory rel and records its .git entries; the
// subdirectories it does not know yet are pushed on stack (nil: walked at
// once). A directory past the bound is not read.
func (g *GitMeta) read(rel string, start time.Time, stack *[]string) {
	if _, known := g.dirs[rel]; !known && len(g.dirs) >= g.limit {
		g.over = true
		return
	}
	g.watch(rel) // before the read: a change after it is told
	st, ok := stampDir(g.abs(rel), start)
	if !ok {
		g.forget(rel)
		return
	}
	g.dirs[rel] = st
	f, err := os.Open(g.abs(rel))
	if err != nil {
		return
	}
	defer f.Close()
	depth := strings.Count(rel, "/") + 1
	for {
		des, err := f.ReadDir(1024)
		for _, de := range des {
			child := path.Join(rel, de.Name())
			switch {
			case de.Name() == GitMetaName:
				g.ents[child] = true
			case !de.IsDir():
			case g.dirs[child] != (dirStamp{}):
			case depth >= maxWatchDepth:
				g.over = true
			case stack != nil:
				*stack = append(*stack, child)
			default:
				g.walk(child, start)
			}
		}
		if err != nil {
			return
		}
	}
}

// stampDir returns the stamp of the directory at abs (not following a
// symbolic link), marked racy when it changed too close to start.
func stampDir(abs string, start time.Time) (dirStamp, bool) {
	dev, ino, ctime, ok := dirIdentity(abs)
	if !ok {
		return dirStamp{}, false
	}
	return dirStamp{dev: dev, ino: ino, ctime: ctime, racy: ctime >= start.Add(-racyWindow).UnixNano()}, true
}

// identify returns the identity of the .git entry rel, and what it points
// to inside the workspace when it is a symbolic link or a gitfile ("" if
// nothing). A directory's identity covers its config, config.worktree,
// commondir and hooks: what makes git run something. A gitfile's, a
// link's and a commondir's cover where they point: moved elsewhere, a
// relative path names something else.
func (g *GitMeta) identify(rel string) (entID, string) {
	abs := g.abs(rel)
	fi, err := os.Lstat(abs)
	if err != nil {
		return entID{}, ""
	}
	var id entID
	id.dev, id.ino, _ = fileIdentity(fi)
	id.kind = fi.Mode().Type()
	h := fnv.New64a()
	var target string
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		dest, _ := os.Readlink(abs)
		h.Write([]byte(pointsTo(abs, dest))) // moved, a relative link may point elsewhere
		target = g.inside(filepath.Dir(abs), dest)
	case fi.Mode().IsRegular():
		b := readSmall(abs)
		h.Write(b)
		if s, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
			h.Write([]byte(pointsTo(abs, strings.TrimSpace(s)))) // moved, a relative gitdir may point elsewhere
			target = g.inside(filepath.Dir(abs), strings.TrimSpace(s))
		}
	case fi.IsDir():
		for _, name := range []string{"config", "config.worktree", "commondir"} {
			b := readSmall(filepath.Join(abs, name))
			if name == "commondir" && len(b) > 0 {
				h.Write([]byte(pointsTo(filepath.Join(abs, name), strings.TrimSpace(string(b)))))
			}
			h.Write([]byte(name))
			h.Write(b)
		}
		hooks, _ := os.ReadDir(filepath.Join(abs, "hooks"))
		for _, de := range hooks {
			h.Write([]byte(de.Name()))
			if hi, err := de.Info(); err == nil {
				_, ino, ctime := fileIdentity(hi)
				h.Write([]byte{byte(ino), byte(ino >> 8), byte(ctime), byte(ctime >> 8), byte(ctime >> 16), byte(ctime >> 24)})
			}
		}
	}
	id.sum = h.Sum64()
	return id, target
}

// pointsTo returns the clean absolute path that dest, read from the
// entry at abs, names (relative to abs's directory).
func pointsTo(abs, dest string) string {
	if filepath.IsAbs(dest) {
		return filepath.Clean(dest)
	}
	return filepath.Join(filepath.Dir(abs), dest)
}

// inside returns dest (relative to dir, or absolute), its symbolic links
// followed, as a workspace-relative path when it lies inside the
// workspace, else "".
func (g *GitMeta) inside(dir, dest string) string {
	if dest == "" {
		return ""
	}
	if !filepath.IsAbs(dest) {
		dest = filepath.Join(dir, dest)
	}
	real, err := filepath.EvalSymlinks(dest)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(g.root, real)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// readSmall returns the first maxMetaRead bytes of the regular file at
// abs, opened without following a symbolic link and without blocking (a
// FIFO named config must not hang the scan); nil otherwise.
func readSmall(abs string) []byte {
	f, err := os.OpenFile(abs, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, maxMetaRead))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	return b
}
