package sandbox

import (
	"errors"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dirEvents is what makes a directory's entries change: an entry created,
// deleted or renamed in it, or the directory itself deleted or renamed.
// Changes inside files (and their attributes) are not asked for: they do
// not change which .git entries exist, and GitMeta identifies every known
// entry again at each scan anyway.
const dirEvents = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// dirNotify tells GitMeta which of its directories changed since it last
// asked, from the kernel (inotify), so that a scan costs what changed
// instead of one lstat per directory of the workspace. The kernel queues
// an event as part of the change itself, so every change a command made
// is in the queue when the command has ended. It is used under GitMeta's
// lock.
type dirNotify struct {
	fd      int
	budget  int              // watches it may hold (see watchBudget)
	cleanup runtime.Cleanup  // closes fd when the owner is garbage
	byWd    map[int32]string // watch → workspace-relative directory
	wdOf    map[string]int32
	buf     []byte
}

// newDirNotify returns a watcher that holds at most budget watches (0:
// watchBudget), or nil where inotify is not available (then GitMeta stats
// every directory). Its descriptor is closed when the GitMeta that holds
// it is garbage.
func newDirNotify(owner *GitMeta, budget int) *dirNotify {
	if budget <= 0 {
		budget = watchBudget()
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	return &dirNotify{
		fd:      fd,
		budget:  budget,
		cleanup: runtime.AddCleanup(owner, func(fd int) { _ = unix.Close(fd) }, fd),
		byWd:    map[int32]string{},
		wdOf:    map[string]int32{},
		buf:     make([]byte, 64<<10),
	}
}

// add watches the directory abs, known as rel. It returns false when the
// kernel refuses (watches exhausted, no permission): then the caller must
// stop relying on it. A directory that is gone, or is no directory now,
// is no refusal: the caller finds it gone.
func (n *dirNotify) add(abs, rel string) bool {
	if _, ok := n.wdOf[rel]; !ok && len(n.wdOf) >= n.budget {
		return false
	}
	wd, err := unix.InotifyAddWatch(n.fd, abs, dirEvents)
	if err != nil {
		return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)
	}
	w := int32(wd)
	if old, ok := n.wdOf[rel]; ok && old != w {
		n.remove(rel) // the path names another directory now
	}
	if other, ok := n.byWd[w]; ok && other != rel {
		delete(n.wdOf, other) // the same directory under a new name
	}
	n.byWd[w], n.wdOf[rel] = rel, w
	return true
}

// watchBudget is how many inotify watches one GitMeta may hold: a quarter
// of the user's limit (which all the user's programs share: an editor's
// file watcher must still get its own), and never more than maxWatchDirs.
func watchBudget() int {
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_user_watches")
	if err != nil {
		return 0
	}
	limit, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0
	}
	return min(limit/4, maxWatchDirs)
}

// remove stops watching the directory rel.
func (n *dirNotify) remove(rel string) {
	w, ok := n.wdOf[rel]
	if !ok {
		return
	}
	delete(n.wdOf, rel)
	delete(n.byWd, w)
	_, _ = unix.InotifyRmWatch(n.fd, uint32(w))
}

// drain reads every queued event and returns the directories whose
// entries changed and those (subdirectories named in an event, or a
// watched directory renamed or deleted) whose whole tree must be
// forgotten and walked again. ok is false when events were lost (the
// queue overflowed) or could not be read: then the caller must stat
// every directory.
func (n *dirNotify) drain() (changed, dropped []string, ok bool) {
	ok = true
	for {
		k, err := unix.Read(n.fd, n.buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || k <= 0 {
			return changed, dropped, ok && (errors.Is(err, unix.EAGAIN) || k == 0)
		}
		for off := 0; off+unix.SizeofInotifyEvent <= k; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&n.buf[off]))
			name := n.buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
				ok = false
				continue
			}
			rel, known := n.byWd[ev.Wd]
			if !known {
				continue // a watch already removed
			}
			switch {
			case ev.Mask&unix.IN_IGNORED != 0:
				delete(n.wdOf, rel)
				delete(n.byWd, ev.Wd)
			case ev.Mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
				dropped = append(dropped, rel)
				changed = append(changed, path.Dir(rel))
			default:
				changed = append(changed, rel)
				if ev.Mask&unix.IN_ISDIR != 0 {
					dropped = append(dropped, path.Join(rel, cString(name)))
				}
			}
		}
	}
}

// cString is the NUL-padded name of an inotify event as a string.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// close releases the watcher and its watches (GitMeta falls back to stat
// scans); it must not be used again.
func (n *dirNotify) close() {
	n.cleanup.Stop()
	_ = unix.Close(n.fd)
}
