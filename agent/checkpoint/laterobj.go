package checkpoint

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Quick objects: a quick pass that finds few files changed hashes them
// itself and writes their blobs and the trees of their directories as
// loose objects (uncompressed, as the store's git writes them), instead
// of running `git update-index` and `git write-tree` on the shadow index
// (each reads and writes all of it). The entries it hashed stay in the
// state (own), not in the index file, until more than maxOwn gather: then
// git stages them. The trees of the index's directories are computed
// once after each parse, and used only when the root computed so equals
// the tree git wrote (otherwise git stages every change).

// maxOwn is the most entries the quick passes keep hashed themselves
// before git stages them into the index file.
const maxOwn = 512

// treeMode is the mode of a directory in a tree object.
const treeMode = 0o40000

// dirTrees computes the tree of every directory of the sorted entries
// ents, by slash path ("." the workspace); false when an entry is one no
// tree holds as it is (a gitlink, a conflict).
func dirTrees(ents []indexEntry) (map[string][sha1.Size]byte, bool) {
	seen := map[string]bool{".": true}
	dirs := []string{"."}
	for i := range ents {
		for d := path.Dir(ents[i].path); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	trees := make(map[string][sha1.Size]byte, len(dirs))
	return trees, buildTrees(ents, dirs, trees, nil)
}

// buildTrees computes the trees of the directories dirs from ents into
// trees, deepest first (a directory with no entry left is removed),
// writing each with write when it is not nil; false when one cannot be.
func buildTrees(ents []indexEntry, dirs []string, trees map[string][sha1.Size]byte, write func(kind string, data []byte) ([sha1.Size]byte, error)) bool {
	sort.Slice(dirs, func(i, j int) bool {
		if di, dj := depth(dirs[i]), depth(dirs[j]); di != dj {
			return di > dj
		}
		return dirs[i] < dirs[j]
	})
	for _, d := range dirs {
		data, ok := treeData(ents, d, trees)
		if !ok {
			return false
		}
		if data == nil && d != "." {
			delete(trees, d)
			continue
		}
		var oid [sha1.Size]byte
		if write == nil {
			oid = objectID("tree", data)
		} else {
			var err error
			if oid, err = write("tree", data); err != nil {
				return false
			}
		}
		trees[d] = oid
	}
	return true
}

// depth is how many directories down d is ("." is 0).
func depth(d string) int {
	if d == "." {
		return 0
	}
	return strings.Count(d, "/") + 1
}

// treeData is the tree object of directory d: its files from ents (a
// contiguous run, sorted as git sorts a tree's entries) and its
// directories' trees from trees; nil when it holds nothing.
func treeData(ents []indexEntry, d string, trees map[string][sha1.Size]byte) ([]byte, bool) {
	prefix := ""
	if d != "." {
		prefix = d + "/"
	}
	var b bytes.Buffer
	last := ""
	for i := sort.Search(len(ents), func(i int) bool { return ents[i].path >= prefix }); i < len(ents) && strings.HasPrefix(ents[i].path, prefix); i++ {
		e := &ents[i]
		rest := e.path[len(prefix):]
		if name, _, sub := strings.Cut(rest, "/"); sub {
			if name == last {
				continue
			}
			last = name
			oid, ok := trees[prefix+name]
			if !ok {
				return nil, false
			}
			fmt.Fprintf(&b, "%o %s\x00", treeMode, name)
			b.Write(oid[:])
			continue
		}
		if e.stage != 0 || e.mode == 0o160000 || rest == "" {
			return nil, false
		}
		b.WriteString(strconv.FormatUint(uint64(e.mode), 8) + " " + rest + "\x00")
		b.Write(e.oid[:])
	}
	if b.Len() == 0 {
		return nil, true
	}
	return b.Bytes(), true
}

// objectID is the id git gives an object of kind with content data.
func objectID(kind string, data []byte) [sha1.Size]byte {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", kind, len(data))
	h.Write(data)
	var oid [sha1.Size]byte
	h.Sum(oid[:0])
	return oid
}

// writeObject writes an object of kind with content data into the shadow
// repository as a loose object, uncompressed (zlib's stored blocks, as
// core.looseCompression 0 has git write it), unless it is there already,
// and returns its id. It is written aside and renamed into place.
func (s *Store) writeObject(kind string, data []byte) ([sha1.Size]byte, error) {
	oid := objectID(kind, data)
	name := hex.EncodeToString(oid[:])
	dir := filepath.Join(s.dir, "objects", name[:2])
	final := filepath.Join(dir, name[2:])
	if _, err := os.Lstat(final); err == nil {
		return oid, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return oid, fmt.Errorf("checkpoint: write object %s: %w", name, err)
	}
	f, err := os.CreateTemp(dir, "tmp_obj_")
	if err != nil {
		return oid, fmt.Errorf("checkpoint: write object %s: %w", name, err)
	}
	defer os.Remove(f.Name()) // gone once renamed
	z, _ := zlib.NewWriterLevel(f, zlib.NoCompression)
	fmt.Fprintf(z, "%s %d\x00", kind, len(data))
	_, err = z.Write(data)
	if err == nil {
		err = z.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o444)
	}
	if err == nil {
		err = os.Rename(f.Name(), final)
	}
	if err != nil {
		return oid, fmt.Errorf("checkpoint: write object %s: %w", name, err)
	}
	return oid, nil
}

// replaced puts the entries of changes into the sorted ents in place
// when each replaces an entry of its path, as an edit of files in place
// gives (no copy of them all); false when one adds or takes out an
// entry, and ents may be partly changed (merge then).
func replaced(ents []indexEntry, changes map[string]*indexEntry) ([]indexEntry, bool) {
	for p, e := range changes {
		i := sort.Search(len(ents), func(i int) bool { return ents[i].path >= p })
		if e == nil || i == len(ents) || ents[i].path != p {
			return nil, false
		}
		ents[i] = *e
	}
	return ents, true
}

// merge returns ents with the entries of changes put in (by path; nil
// takes the entry out), sorted.
func merge(ents []indexEntry, changes map[string]*indexEntry) []indexEntry {
	out := make([]indexEntry, 0, len(ents)+len(changes))
	var adds []indexEntry
	for _, e := range changes {
		if e != nil {
			adds = append(adds, *e)
		}
	}
	sort.Slice(adds, func(i, j int) bool { return adds[i].path < adds[j].path })
	for i := range ents {
		if _, ok := changes[ents[i].path]; ok {
			continue
		}
		for len(adds) > 0 && adds[0].path < ents[i].path {
			out, adds = append(out, adds[0]), adds[1:]
		}
		out = append(out, ents[i])
	}
	return append(out, adds...)
}
