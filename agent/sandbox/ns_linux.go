package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// hiddenDirs are replaced by an empty tmpfs inside the sandbox (keeping
// only the policy's own directories under them): they hold the Unix
// sockets of the user's other programs (tmux, X11, ssh-agent, docker,
// D-Bus), which a command must not reach.
var hiddenDirs = [...]string{"/tmp", "/run", "/var/run", "/var/tmp"}

// setupNamespaces runs inside the new user, mount and network namespaces:
// it makes the mount tree private, hides the shared directories and
// tick's own (Policy.Hidden), makes every .git entry of the workspace and
// the paths of Policy.Protect read-only, hides the repository config's
// extraheader values and brings up loopback when allowed.
func setupNamespaces(p Policy) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make the mounts private: %w", err)
	}
	keep := append(p.writable(), p.Workspace)
	for _, dir := range hiddenDirs {
		if err := hideDir(dir, keep); err != nil {
			return err
		}
	}
	if err := hidePaths(p, keep); err != nil {
		return err
	}
	if p.Mode == WorkspaceWrite && p.Workspace != "" {
		if err := protectGitMeta(p); err != nil {
			return err
		}
		if err := protectPaths(p); err != nil {
			return err
		}
	}
	if err := hideGitSecrets(p); err != nil {
		return err
	}
	if p.Network == NetworkLoopback {
		if err := loopbackUp(); err != nil {
			return err
		}
	}
	return nil
}

// hideDir mounts an empty tmpfs on dir, unless dir is missing or a
// symbolic link, and binds back every path of keep that lies under it
// (opened before the tmpfs covers them).
func hideDir(dir string, keep []string) error {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || real != dir {
		return nil
	}
	type kept struct {
		path string
		fd   int
	}
	var back []kept
	defer func() {
		for _, k := range back {
			unix.Close(k.fd)
		}
	}()
	for _, k := range keep {
		if k == "" || !strings.HasPrefix(k+"/", dir+"/") {
			continue
		}
		fd, err := unix.Open(k, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			continue // nothing to keep
		}
		back = append(back, kept{k, fd})
	}
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777,size=16m"); err != nil {
		return fmt.Errorf("hide %s: %w", dir, err)
	}
	for _, k := range back {
		if err := os.MkdirAll(k.path, 0o700); err != nil {
			return fmt.Errorf("keep %s: %w", k.path, err)
		}
		src := "/proc/self/fd/" + strconv.Itoa(k.fd)
		if err := unix.Mount(src, k.path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("keep %s: %w", k.path, err)
		}
	}
	return nil
}

// bindReadOnly makes path (a directory or a file, e.g. a worktree's .git
// file) read-only where it is; a missing path is left alone.
func bindReadOnly(path string) error {
	if _, err := os.Lstat(path); err != nil {
		return nil
	}
	if err := unix.Mount(path, path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", path, err)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return fmt.Errorf("read the mount flags of %s: %w", path, err)
	}
	// A remount must repeat the flags the mount was locked with.
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for st_, ms := range map[int64]uintptr{
		unix.ST_NOSUID: unix.MS_NOSUID, unix.ST_NODEV: unix.MS_NODEV, unix.ST_NOEXEC: unix.MS_NOEXEC,
		unix.ST_NOATIME: unix.MS_NOATIME, unix.ST_NODIRATIME: unix.MS_NODIRATIME, unix.ST_RELATIME: unix.MS_RELATIME,
	} {
		if int64(st.Flags)&st_ != 0 { // int32 on 386 and arm
			flags |= ms
		}
	}
	if err := unix.Mount("", path, "", flags, ""); err != nil {
		return fmt.Errorf("make %s read-only: %w", path, err)
	}
	return nil
}

// loopbackUp brings up the network namespace's own loopback interface.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("bring up loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("bring up loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bring up loopback: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bring up loopback: %w", err)
	}
	return nil
}
