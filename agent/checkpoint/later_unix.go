//go:build unix

package checkpoint

import (
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// lstatKey returns the stat data of the file p, not following a link.
func lstatKey(p string) (fileKey, error) {
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		return fileKey{}, err
	}
	return keyOf(&st), nil
}

// keyOf is the fileKey of st.
func keyOf(st *unix.Stat_t) fileKey {
	return fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino), mode: uint32(st.Mode), uid: st.Uid, gid: st.Gid,
		size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}

// statEntries stats the files of ents under the workspace work, each by
// its name in its directory (opened from the workspace down, never
// through a link, as git takes a file below a link as gone), and returns
// the paths of those not unchanged (see unchanged) since the index
// written at indexMtime recorded them; false when one cannot be stat'ed
// for a reason other than its absence.
func statEntries(work string, ents []indexEntry, indexMtime int64) ([]string, bool) {
	var changed []string
	dirs := dirFDs{work: work}
	defer dirs.close()
	var st unix.Stat_t
	for i := range ents {
		e := &ents[i]
		dir, name := path.Split(e.path)
		fd, err := dirs.open(strings.TrimSuffix(dir, "/"))
		if err == nil {
			err = unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		}
		switch {
		case err == nil && unchanged(e, keyOf(&st), indexMtime):
		case err == nil, err == unix.ENOENT, err == unix.ENOTDIR, err == unix.ELOOP:
			changed = append(changed, e.path)
		default:
			return nil, false
		}
	}
	return changed, true
}

// dirFDs opens the directories of the workspace work one at a time,
// keeping the last one and those above it open.
type dirFDs struct {
	work  string
	last  string // the directory open last, when valid
	valid bool
	names []string // the directories open, from the workspace down ("" the workspace)
	fds   []int
}

// open returns a descriptor of the directory dir (slash path, "" the
// workspace), opening each component below the last common one without
// following links.
func (d *dirFDs) open(dir string) (int, error) {
	if d.valid && dir == d.last {
		return d.fds[len(d.fds)-1], nil
	}
	d.valid = false
	want := []string{""}
	if dir != "" {
		want = append(want, strings.Split(dir, "/")...)
	}
	keep := 0
	for keep < len(d.names) && keep < len(want) && d.names[keep] == want[keep] {
		keep++
	}
	for len(d.fds) > keep {
		unix.Close(d.fds[len(d.fds)-1])
		d.fds, d.names = d.fds[:len(d.fds)-1], d.names[:len(d.names)-1]
	}
	for len(d.fds) < len(want) {
		var fd int
		var err error
		const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if len(d.fds) == 0 {
			fd, err = unix.Open(d.work, flags, 0)
		} else {
			fd, err = unix.Openat(d.fds[len(d.fds)-1], want[len(d.fds)], flags, 0)
		}
		if err != nil {
			return -1, err
		}
		d.fds, d.names = append(d.fds, fd), append(d.names, want[len(d.fds)])
	}
	d.last, d.valid = dir, true
	return d.fds[len(d.fds)-1], nil
}

// close closes the descriptors open.
func (d *dirFDs) close() {
	for _, fd := range d.fds {
		unix.Close(fd)
	}
}

// readEntry returns what git would record for the workspace file p
// (slash path): its mode (0 when it records nothing: the file missing, a
// directory, below a link), its content and stat data, taken before the
// reading and checked unchanged after it; false for a file git cannot
// record as it is (special, unreadable, changing meanwhile) or one over
// MaxFileSize.
func readEntry(dirs *dirFDs, p string) (uint32, []byte, fileKey, bool) {
	dir, name := path.Split(p)
	fd, err := dirs.open(strings.TrimSuffix(dir, "/"))
	if err == unix.ENOENT || err == unix.ENOTDIR || err == unix.ELOOP {
		return 0, nil, fileKey{}, true
	}
	var st unix.Stat_t
	if err == nil {
		err = unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	switch {
	case err == unix.ENOENT || err == unix.ENOTDIR:
		return 0, nil, fileKey{}, true
	case err != nil:
		return 0, nil, fileKey{}, false
	}
	k := keyOf(&st)
	switch k.mode & modeType {
	case modeDir:
		return 0, nil, k, true
	case modeLink:
		buf := make([]byte, 4096)
		n, err := unix.Readlinkat(fd, name, buf)
		if err != nil || n == len(buf) {
			return 0, nil, k, false
		}
		return gitMode(k.mode), buf[:n], k, true
	case modeRegular:
		if k.size > MaxFileSize {
			return 0, nil, k, false
		}
		data, ok := readRegular(fd, name, k)
		return gitMode(k.mode), data, k, ok
	}
	return 0, nil, k, false
}

// readRegular reads the regular file name in the directory fd, whose
// stat data was k, and checks that it is the same file, unchanged, after.
func readRegular(dirfd int, name string, k fileKey) ([]byte, bool) {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	data := make([]byte, k.size+1)
	n := 0
	for n < len(data) {
		m, err := unix.Read(fd, data[n:])
		if err != nil {
			return nil, false
		}
		if m == 0 {
			break
		}
		n += m
	}
	var st unix.Stat_t
	if n != int(k.size) || unix.Fstat(fd, &st) != nil || keyOf(&st) != k {
		return nil, false
	}
	return data[:n], true
}
