package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// protectPaths makes every path of p.Protect that exists read-only where
// it is, as protectGitMeta does for .git: tick's .tick, the files trusted
// hooks and MCP servers run, and what the repository's git config names.
// Each directory between the workspace and such a path becomes a mount
// point of its own (still writable), which cannot be renamed or removed:
// moving conf aside and making a new conf/inc would otherwise swap an
// included conf/inc. A path outside the workspace is left alone; a
// symbolic link is protected at its target when that lies in the
// workspace. The workspace's own links are followed first: it may be
// named through one.
func protectPaths(p Policy) error {
	ws := filepath.Clean(p.Workspace)
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real // named through a link (cd ~/src/app): the paths resolve under its real location
	}
	var leaves []string
	pinned := map[string]bool{}
	var pins []string
	for _, rel := range p.Protect {
		abs := filepath.Join(ws, filepath.FromSlash(rel))
		if !strings.HasPrefix(abs, ws+string(filepath.Separator)) {
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil || !strings.HasPrefix(real, ws+string(filepath.Separator)) {
			continue
		}
		leaves = append(leaves, real)
		for dir := filepath.Dir(real); dir != ws && strings.HasPrefix(dir, ws+string(filepath.Separator)); dir = filepath.Dir(dir) {
			if !pinned[dir] {
				pinned[dir] = true
				pins = append(pins, dir)
			}
		}
	}
	sort.Slice(pins, func(i, j int) bool { return len(pins[i]) < len(pins[j]) }) // outer first
	for _, dir := range pins {
		if err := unix.Mount(dir, dir, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("pin %s: %w", dir, err)
		}
	}
	for _, real := range leaves {
		if err := bindReadOnly(real); err != nil {
			return err
		}
	}
	return nil
}

// hidePaths covers every path of p.Hidden, its symbolic links followed:
// a directory with an empty read-only tmpfs (the policy's own
// directories under it bound back), a file with /dev/null. keep are the
// policy's own directories.
func hidePaths(p Policy, keep []string) error {
	// Every link is followed before anything is covered: a file hidden in
	// a directory hidden first would no longer be found.
	type target struct {
		path string
		dir  bool
	}
	var targets []target
	for _, h := range p.Hidden {
		if !filepath.IsAbs(h) {
			continue
		}
		real, err := filepath.EvalSymlinks(h)
		if err != nil {
			continue // nothing there to hide
		}
		if fi, err := os.Stat(real); err == nil && (fi.IsDir() || fi.Mode().IsRegular()) {
			targets = append(targets, target{real, fi.IsDir()})
		}
	}
	for _, t := range targets {
		if !t.dir {
			if err := unix.Mount("/dev/null", t.path, "", unix.MS_BIND, ""); err != nil {
				return fmt.Errorf("hide %s: %w", t.path, err)
			}
		}
	}
	for _, t := range targets {
		if t.dir {
			if err := coverDir(t.path, keep); err != nil {
				return err
			}
		}
	}
	return nil
}

// coverDir mounts an empty, read-only tmpfs on dir and binds back every
// path of keep under it (opened before the tmpfs covers them). dir being
// itself one of keep (tick run in its own config directory) leaves it
// alone.
func coverDir(dir string, keep []string) error {
	var back []string
	for _, k := range keep {
		if k == "" {
			continue
		}
		if r, err := filepath.EvalSymlinks(k); err == nil {
			k = r
		}
		switch {
		case k == dir:
			return nil
		case strings.HasPrefix(k+"/", dir+"/"):
			back = append(back, k)
		}
	}
	fds := make([]int, 0, len(back))
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	var kept []string
	for _, k := range back {
		fd, err := unix.Open(k, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		fds, kept = append(fds, fd), append(kept, k)
	}
	const flags = unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC
	if err := unix.Mount("tmpfs", dir, "tmpfs", flags, "mode=0700,size=64k"); err != nil {
		return fmt.Errorf("hide %s: %w", dir, err)
	}
	for i, k := range kept {
		if err := os.MkdirAll(k, 0o700); err != nil {
			return fmt.Errorf("keep %s: %w", k, err)
		}
		if err := unix.Mount("/proc/self/fd/"+strconv.Itoa(fds[i]), k, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("keep %s: %w", k, err)
		}
	}
	if err := unix.Mount("", dir, "", unix.MS_REMOUNT|unix.MS_RDONLY|flags, ""); err != nil {
		return fmt.Errorf("make %s read-only: %w", dir, err)
	}
	return nil
}
