package checkpoint

import (
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
)

// A git index file, read to start the shadow index from the user's (see
// borrow.go): only what borrowing needs is parsed.

// indexEntry is one entry of an index file.
type indexEntry struct {
	path  string
	mode  uint32
	oid   [sha1.Size]byte
	size  uint32 // the file's size when git last looked at it
	stage int
	flags uint16 // assume-valid is 0x8000
	ext   uint16 // extended flags: skip-worktree 0x4000, intent-to-add 0x2000
	stat  statData
	own   bool // hashed by a quick pass, not read from the index file (see laterobj.go)
}

// statData is the file's stat data as git recorded it in an index entry
// (each field cut to 32 bits, as git stores it).
type statData struct {
	ctime, ctimeNs, mtime, mtimeNs, dev, ino, uid, gid uint32
}

// errIndexFormat is returned for an index borrowing cannot use.
var errIndexFormat = errors.New("index format not borrowed")

// parseIndex reads an index file of SHA-1 ids (versions 2 to 4) and
// returns its entries and data without its extensions, with a new
// checksum: an index git reads as the same entries with no cached trees,
// no untracked cache and no fsmonitor data. A split or sparse index is
// refused (errIndexFormat), and so is a malformed one.
func parseIndex(b []byte) ([]indexEntry, []byte, error) {
	ents, off, err := parseEntries(b)
	if err != nil {
		return nil, nil, err
	}
	out := append([]byte(nil), b[:off]...)
	sum := sha1.Sum(out)
	return ents, append(out, sum[:]...), nil
}

// parseEntries reads the entries of an index file (see parseIndex) and
// returns them and the offset where its extensions begin.
func parseEntries(b []byte) ([]indexEntry, int, error) {
	const hdr, fixed = 12, 62
	if len(b) < hdr+sha1.Size || string(b[:4]) != "DIRC" {
		return nil, 0, fmt.Errorf("%w: no index header", errIndexFormat)
	}
	ver, n := binary.BigEndian.Uint32(b[4:]), binary.BigEndian.Uint32(b[8:])
	if ver < 2 || ver > 4 {
		return nil, 0, fmt.Errorf("%w: version %d", errIndexFormat, ver)
	}
	end := len(b) - sha1.Size
	ents := make([]indexEntry, 0, min(int(n), 1<<20))
	off, prev := hdr, ""
	for i := uint32(0); i < n; i++ {
		if off+fixed > end {
			return nil, 0, fmt.Errorf("%w: entry %d cut", errIndexFormat, i)
		}
		e := indexEntry{mode: binary.BigEndian.Uint32(b[off+24:]), size: binary.BigEndian.Uint32(b[off+36:]), stat: readStat(b[off:])}
		copy(e.oid[:], b[off+40:off+60])
		e.flags = binary.BigEndian.Uint16(b[off+60:])
		e.stage = int(e.flags>>12) & 3
		p := off + fixed
		if ver >= 3 && e.flags&0x4000 != 0 {
			if p+2 > end {
				return nil, 0, fmt.Errorf("%w: entry %d cut", errIndexFormat, i)
			}
			e.ext, p = binary.BigEndian.Uint16(b[p:]), p+2
		}
		strip := 0
		if ver == 4 {
			v, k := indexVarint(b[p:end])
			if k == 0 || v > len(prev) {
				return nil, 0, fmt.Errorf("%w: entry %d name", errIndexFormat, i)
			}
			strip, p = v, p+k
		}
		nul := p
		for nul < end && b[nul] != 0 {
			nul++
		}
		if nul >= end {
			return nil, 0, fmt.Errorf("%w: entry %d name", errIndexFormat, i)
		}
		if ver == 4 {
			e.path = prev[:len(prev)-strip] + string(b[p:nul]) // prefix-compressed against the previous path
		} else {
			e.path = string(b[p:nul])
		}
		if ver == 4 {
			off = nul + 1
		} else {
			off += (p - off + (nul - p) + 8) &^ 7
		}
		if off > end {
			return nil, 0, fmt.Errorf("%w: entry %d cut", errIndexFormat, i)
		}
		ents, prev = append(ents, e), e.path
	}
	if err := checkExtensions(b[off:end]); err != nil {
		return nil, 0, err
	}
	return ents, off, nil
}

// readStat reads the stat data at the start of an index entry b.
func readStat(b []byte) statData {
	u := func(i int) uint32 { return binary.BigEndian.Uint32(b[i:]) }
	return statData{ctime: u(0), ctimeNs: u(4), mtime: u(8), mtimeNs: u(12), dev: u(16), ino: u(20), uid: u(28), gid: u(32)}
}

// checkExtensions refuses the extensions without which the entries are
// not the whole index: a split index's link, a sparse index's sdir.
func checkExtensions(b []byte) error {
	for len(b) >= 8 {
		sig, size := string(b[:4]), int(binary.BigEndian.Uint32(b[4:]))
		if sig == "link" || sig == "sdir" {
			return fmt.Errorf("%w: extension %s", errIndexFormat, sig)
		}
		if size > len(b)-8 {
			return fmt.Errorf("%w: extension %q cut", errIndexFormat, sig)
		}
		b = b[8+size:]
	}
	return nil
}

// indexVarint reads the offset-encoded number of an index v4 entry and
// returns it and the bytes it took (0 when b ends first).
func indexVarint(b []byte) (int, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c, k := b[0], 1
	v := int(c & 127)
	for c&128 != 0 {
		if k >= len(b) || k > 8 {
			return 0, 0
		}
		v++
		c = b[k]
		k++
		v = v<<7 + int(c&127)
	}
	return v, k
}

// isAttributes reports whether p is a .gitattributes file.
func isAttributes(p string) bool { return path.Base(p) == ".gitattributes" }
