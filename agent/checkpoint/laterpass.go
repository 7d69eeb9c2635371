package checkpoint

import (
	"bytes"
	"context"
	"encoding/hex"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// later stages a snapshot from the state the previous one left (see
// Later snapshots) and returns its tree and what it left out; false when
// it cannot, and the full staging must run. The state is used once: it
// is kept again only when this pass ends well. The caller holds the
// lock.
func (s *Store) later(ctx context.Context) (string, []Skip, bool) {
	st := s.last
	s.last = nil
	if st == nil {
		return "", nil, false
	}
	if root, err := filepath.EvalSymlinks(s.work); err != nil || root != st.root {
		return "", nil, false
	}
	if k, sum, err := s.indexID(); err != nil || k != st.index || sum != st.sum {
		return "", nil, false // a restore, another tick: the index is not as the state knows it
	}
	for p, was := range st.watch {
		if k, _ := lstatKey(p); k != was {
			return "", nil, false
		}
	}
	skipped, ok := s.stillLarge(st.skipped)
	if !ok {
		return "", nil, false
	}
	st.skipped = skipped
	since := time.Now()
	cand, ok := st.rescan(st.root)
	if !ok {
		return "", nil, false
	}
	if st.ents == nil && !s.loadEntries(st) {
		return "", nil, false
	}
	changed, ok := changedTracked(st.root, st.ents, st.index.mtime)
	if !ok {
		return "", nil, false
	}
	if overlaps(cand, st.touched) && !s.stagePaths(ctx, st, keys(st.touched)) {
		return "", nil, false // git must know of the files taken out before it tells untracked ones
	}
	fresh, ok := s.untracked(ctx, cand)
	if !ok {
		return "", nil, false
	}
	if len(changed)+len(fresh) > 0 {
		if !s.stage(ctx, st, append(changed, fresh...)) {
			return "", nil, false
		}
	}
	st.since = since
	s.last = st
	s.quick++
	return st.tree, st.skipped, true
}

// loadEntries reads the shadow index file's entries into st, and the
// trees of their directories when those make st's tree (see Quick
// objects); false when it cannot be read or holds more than maxNames.
func (s *Store) loadEntries(st *laterState) bool {
	raw, err := os.ReadFile(filepath.Join(s.dir, "index"))
	if err != nil {
		return false
	}
	if st.ents, _, err = parseEntries(raw); err != nil || len(st.ents) > maxNames {
		return false
	}
	st.trees = nil
	if trees, ok := dirTrees(st.ents); ok && hexID(trees["."]) == st.tree {
		st.trees = trees
	}
	return true
}

// stage records the files of paths (changed, deleted or new) in st and
// writes the tree they make: hashed by the quick pass itself when it
// can (see Quick objects), else by git into the index file, with those
// the quick passes hashed before; false when neither can.
func (s *Store) stage(ctx context.Context, st *laterState, paths []string) bool {
	for _, p := range paths {
		if path.Base(p) == ".gitignore" {
			return false // the rules changed: the untracked files must be listed again
		}
	}
	if st.trees != nil && len(st.touched)+len(paths) <= maxOwn && s.hashPaths(st, paths) {
		return true
	}
	return s.stagePaths(ctx, st, append(paths, keys(st.touched)...))
}

// keys returns the paths of set.
func keys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	return out
}

// overlaps reports whether a path of cand is one of set, or above or
// below one: git's index, not knowing what the quick passes took out,
// would call such a path tracked.
func overlaps(cand []string, set map[string]bool) bool {
	for _, c := range cand {
		for t := range set {
			if c == t || strings.HasPrefix(t, c+"/") || strings.HasPrefix(c, t+"/") {
				return true
			}
		}
	}
	return false
}

// hashPaths hashes the files of paths into st's entries, writes their
// blobs and the trees of their directories, and sets st's tree; false
// (st as it was) when one cannot be hashed or written.
func (s *Store) hashPaths(st *laterState, paths []string) bool {
	dirs := &dirFDs{work: st.root}
	defer dirs.close()
	cutoff := time.Now().Add(-racyDir).UnixNano()
	changes := make(map[string]*indexEntry, len(paths))
	seen := map[string]bool{}
	var dirty []string
	for _, p := range paths {
		mode, data, k, ok := readEntry(dirs, p)
		if !ok {
			return false
		}
		var e *indexEntry
		if mode != 0 {
			oid, err := s.writeObject("blob", data)
			if err != nil {
				return false
			}
			e = &indexEntry{path: p, mode: mode, oid: oid, size: uint32(k.size), own: true}
			if k.mtime < cutoff && k.ctime < cutoff {
				e.stat = statOf(k) // else left zero: the next pass hashes it again
			}
		}
		changes[p] = e
		for d := path.Dir(p); !seen[d]; d = path.Dir(d) {
			seen[d] = true
			dirty = append(dirty, d)
		}
	}
	ents, ok := replaced(st.ents, changes)
	if !ok {
		ents = merge(st.ents, changes)
	}
	trees := maps.Clone(st.trees)
	if !buildTrees(ents, dirty, trees, s.writeObject) {
		return false
	}
	st.ents, st.trees, st.tree = ents, trees, hexID(trees["."])
	for p := range changes {
		st.touched[p] = true
	}
	return true
}

// hexID is an object id as hex.
func hexID(oid [20]byte) string { return hex.EncodeToString(oid[:]) }

// stagePaths updates the shadow index for paths (changed, deleted or
// new files) and writes its tree into st; false when git fails.
func (s *Store) stagePaths(ctx context.Context, st *laterState, paths []string) bool {
	var b bytes.Buffer
	for _, p := range paths {
		b.WriteString(p + "\x00")
	}
	if _, err := s.run(ctx, b.Bytes(), "update-index", "--add", "--remove", "--replace", "-z", "--stdin"); err != nil {
		return false
	}
	out, err := s.run(ctx, nil, "write-tree")
	if err != nil {
		return false
	}
	k, sum, err := s.indexID()
	if err != nil {
		return false
	}
	st.tree, st.index, st.sum = strings.TrimSpace(string(out)), k, sum
	st.ents, st.trees, st.touched = nil, nil, map[string]bool{}
	return true
}

// changedTracked stats the files of the index entries ents under the
// workspace root, in parts in parallel, and returns those git would look
// at again (see unchanged); false when an entry or a file is one the
// quick pass does not handle.
func changedTracked(root string, ents []indexEntry, indexMtime int64) ([]string, bool) {
	for i := range ents {
		if e := &ents[i]; e.stage != 0 || e.flags&0x8000 != 0 || e.ext != 0 || e.mode == 0o160000 {
			return nil, false
		}
	}
	workers := min(runtime.GOMAXPROCS(0), 4)
	parts := make([][]string, workers)
	ok := make([]bool, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := len(ents)*w/workers, len(ents)*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[w], ok[w] = statEntries(root, ents[lo:hi], indexMtime)
		}()
	}
	wg.Wait()
	var out []string
	for w := range workers {
		if !ok[w] {
			return nil, false
		}
		out = append(out, parts[w]...)
	}
	return out, true
}

// unchanged reports whether git, reading the index written at indexMtime
// (nanoseconds), takes the file k as the entry e without reading it: its
// mode, size and stat data as recorded (cut to 32 bits, as git keeps
// them), and the entry not racily clean (modified no earlier than the
// index was written: git would compare the content).
func unchanged(e *indexEntry, k fileKey, indexMtime int64) bool {
	if gitMode(k.mode) != e.mode || uint32(k.size) != e.size {
		return false
	}
	if !e.own && int64(e.stat.mtime)*1e9+int64(e.stat.mtimeNs) >= indexMtime {
		return false
	}
	return e.stat == statOf(k)
}

// statOf is k as an index entry records it.
func statOf(k fileKey) statData {
	return statData{
		ctime: uint32(k.ctime / 1e9), ctimeNs: uint32(k.ctime % 1e9),
		mtime: uint32(k.mtime / 1e9), mtimeNs: uint32(k.mtime % 1e9),
		dev: uint32(k.dev), ino: uint32(k.ino), uid: k.uid, gid: k.gid,
	}
}

// gitMode is the mode git records for a file of lstat mode m (0 for one
// it records no entry of).
func gitMode(m uint32) uint32 {
	switch m & modeType {
	case modeRegular:
		if m&0o100 != 0 {
			return 0o100755
		}
		return 0o100644
	case modeLink:
		return 0o120000
	}
	return 0
}
