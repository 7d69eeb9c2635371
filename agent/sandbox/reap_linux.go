package sandbox

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// reapLimit bounds how long the helper keeps killing: a fork bomb
// outruns nobody for long once every member is killed on sight.
const reapLimit = 5 * time.Second

// reapAll kills every descendant of this process with SIGKILL and reaps
// them, until it has no child left. As a subreaper, the helper inherits
// every orphan of the command's tree (double forks, setsid, nohup), so
// repeating "kill all descendants, reap" until wait reports no child
// ends them all.
func reapAll() {
	// No child at all means no descendant: every living one has an
	// ancestor that is a child of the helper, the subreaper.
	if _, err := unix.Wait4(-1, nil, unix.WNOHANG, nil); errors.Is(err, unix.ECHILD) {
		return
	}
	self := os.Getpid()
	killAndReap(func() {
		for _, pid := range descendants(self) {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
	})
}

// reapNamespace kills every other process of the helper's PID namespace
// and reaps them, until it has no child left. The helper is the
// namespace's init: every orphan becomes its child, and kill(-1) from it
// reaches exactly the namespace's other processes (no /proc needed,
// which may be the host's). Whatever escapes the deadline dies with the
// helper, as the kernel kills a PID namespace whose init ends.
func reapNamespace() {
	killAndReap(func() { _ = unix.Kill(-1, unix.SIGKILL) })
}

// killAndReap repeats kill and reaps what ended, until no child is left
// or reapLimit has passed.
func killAndReap(kill func()) {
	deadline := time.Now().Add(reapLimit)
	for time.Now().Before(deadline) {
		kill()
		for {
			pid, err := unix.Wait4(-1, nil, unix.WNOHANG, nil)
			if errors.Is(err, unix.ECHILD) {
				return
			}
			if err != nil && !errors.Is(err, unix.EINTR) {
				return
			}
			if pid == 0 {
				break // children left, none ended yet
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// descendants returns the pids of every process below root, from /proc.
func descendants(root int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := parentOf(pid); pp > 0 {
			children[pp] = append(children[pp], pid)
		}
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// parentOf reads a process's parent pid from /proc/PID/stat; 0 when it is
// gone or unreadable.
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0
	}
	pp, _ := strconv.Atoi(string(f[1]))
	return pp
}
