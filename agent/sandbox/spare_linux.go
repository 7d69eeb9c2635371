package sandbox

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A spare helper is started ahead of its command (see Runner's spare),
// with tick's end of a Unix socket pair; the helper's end is its
// descriptor spareFD. When the command comes, tick sends it over the
// socket: an 8-byte little-endian length, carrying the command's three
// standard streams as SCM_RIGHTS, then that many bytes of a spareRequest
// in JSON. The helper answers one byte, spareAck, once it holds them, and
// from then on is the helper of that command exactly as if it had been
// started for it. A helper that reads end of file instead exits quietly:
// tick gave it up.
const (
	spareArg = "--spare"
	spareFD  = 3
	spareAck = 1
	// spareMax bounds a request's size: tick's commands are far smaller.
	spareMax = 64 << 20
	// spareWait bounds how long tick waits for the helper to read the
	// command, and for its answer once it ended.
	spareWait = 10 * time.Second
)

// spareRequest is the command for a spare helper: what follows HelperArg
// for a helper started for it (the spec, "--" and the command), and the
// environment and directory it would have been started with. They are
// bytes, as execve passes them: a JSON string would turn what is not
// UTF-8 (a Latin-1 path in the user's environment) into U+FFFD.
type spareRequest struct {
	Args [][]byte `json:"args"`
	Env  [][]byte `json:"env"`
	Dir  []byte   `json:"dir"`
}

// newSpareRequest is the request for args, env and dir.
func newSpareRequest(args, env []string, dir string) spareRequest {
	return spareRequest{Args: toBytes(args), Env: toBytes(env), Dir: []byte(dir)}
}

// toBytes is ss as byte slices.
func toBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// toStrings is bs as strings.
func toStrings(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}

// startSpare starts a helper that waits for its command: in new
// namespaces when ns (see sysProcAttr) but the mount namespace, which it
// makes when its command comes (see freshMounts), in a session of its
// own, with /dev/null as its standard streams and the root as its
// directory until the command brings its own, and an environment of
// GOMAXPROCS=1 alone (its runtime then starts fewer threads: a command
// costs about a millisecond of CPU less; the command gets its own
// environment).
func startSpare(helper string, ns bool) (*exec.Cmd, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("make the spare helper's socket: %w", err)
	}
	if err := unix.SetNonblock(fds[0], true); err != nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
		return nil, nil, fmt.Errorf("make the spare helper's socket: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "spare helper"), os.NewFile(uintptr(fds[1]), "spare helper")
	defer theirs.Close()
	cmd := exec.Command(helper, HelperArg, spareArg)
	cmd.Env = []string{"GOMAXPROCS=1"}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{theirs} // spareFD
	cmd.SysProcAttr = sysProcAttr(ns)
	cmd.SysProcAttr.Cloneflags &^= syscall.CLONE_NEWNS
	if err := cmd.Start(); err != nil {
		ours.Close()
		return nil, nil, fmt.Errorf("start a spare sandbox helper: %w", err)
	}
	return cmd, ours, nil
}

// hand sends req with the standard streams stdio to the spare helper at
// the other end of sock, unless the helper is gone. An error means the
// helper cannot have taken the command; answered tells, once it ended,
// whether it did.
func hand(sock *os.File, req spareRequest, stdio [3]*os.File) error {
	body, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("encode the command for the sandbox helper: %w", err)
	}
	rc, err := sock.SyscallConn()
	if err != nil {
		return fmt.Errorf("hand the command to the sandbox helper: %w", err)
	}
	gone := false
	if err := rc.Control(func(fd uintptr) {
		p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN | unix.POLLRDHUP}}
		n, err := unix.Poll(p, 0)
		gone = err != nil || n > 0 // ended, or wrote: not waiting as a spare does
	}); err != nil || gone {
		return fmt.Errorf("hand the command to the sandbox helper: it is gone")
	}
	if err := sock.SetWriteDeadline(time.Now().Add(spareWait)); err != nil {
		return fmt.Errorf("hand the command to the sandbox helper: %w", err)
	}
	var hdr [8]byte
	binary.LittleEndian.PutUint64(hdr[:], uint64(len(body)))
	rights := unix.UnixRights(int(stdio[0].Fd()), int(stdio[1].Fd()), int(stdio[2].Fd()))
	var n int
	var serr error
	if err := rc.Write(func(fd uintptr) bool {
		n, serr = unix.SendmsgN(int(fd), hdr[:], rights, nil, unix.MSG_NOSIGNAL)
		return !errors.Is(serr, unix.EAGAIN)
	}); err != nil {
		return fmt.Errorf("hand the command to the sandbox helper: %w", err)
	}
	if serr != nil {
		return fmt.Errorf("hand the command to the sandbox helper: %w", serr)
	}
	if _, err := sock.Write(append(hdr[n:], body...)); err != nil {
		return fmt.Errorf("hand the command to the sandbox helper: %w", err)
	}
	return nil
}

// answered reads, once the spare helper ended, whether it took its
// command; an error says it ended before.
func answered(sock *os.File) error {
	if err := sock.SetReadDeadline(time.Now().Add(spareWait)); err != nil {
		return fmt.Errorf("read the sandbox helper's answer: %w", err)
	}
	var ack [1]byte
	switch _, err := io.ReadFull(sock, ack[:]); {
	case err != nil:
		return fmt.Errorf("the sandbox helper ended before it took the command: %w", err)
	case ack[0] != spareAck:
		return fmt.Errorf("the sandbox helper answered %d", ack[0])
	}
	return nil
}

// spareMain is the spare helper (Main with spareArg): it readies what
// does not depend on the command (the signals that will end it, the JSON
// decoder's knowledge of its types), waits for its command on spareFD,
// takes the command's standard streams, environment and directory,
// answers, and runs it as Main would have. A signal that came with the
// command on its way ends it before the command starts; one that came
// while nothing was handed ends it at once (see awaitCommand). Until it
// has its command it writes nothing anywhere.
func spareMain() int {
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) // shield repeats it, checked
	if err := closeInherited(); err != nil {
		return 125
	}
	_, _ = json.Marshal(spareRequest{}) // builds the field tables decoding uses
	_, _ = json.Marshal(spec{})
	sigs := awaitCommand(spareFD)
	req, ok := receive(spareFD)
	if !ok {
		return 125
	}
	_, _ = unix.Write(spareFD, []byte{spareAck})
	unix.Close(spareFD)
	select {
	case sig := <-sigs:
		return 128 + int(sig.(syscall.Signal))
	default:
	}
	args, dir := toStrings(req.Args), string(req.Dir)
	if len(args) < 2 || args[1] != "--" {
		fmt.Fprintln(os.Stderr, "tick __sandbox: the spare helper got no command")
		return 125
	}
	s, ok := readSpec(args[0])
	if !ok {
		return 125
	}
	if err := freshMounts(s); err != nil {
		fmt.Fprintf(os.Stderr, "tick: the sandbox could not be set up: %v\n", err)
		return 125
	}
	os.Clearenv()
	for _, kv := range toStrings(req.Env) {
		if k, v, ok := cut(kv); ok {
			_ = os.Setenv(k, v)
		}
	}
	if err := os.Chdir(dir); err != nil {
		fmt.Fprintf(os.Stderr, "tick: %v\n", err)
		return 127 // as starting the helper in a missing directory fails
	}
	return run(s, args[2:], os.Environ(), dir, sigs)
}

// freshMounts gives the spare helper's thread, from which the command is
// set up and started, a mount namespace of its own when the command runs
// in namespaces (as s says): a copy of the mounts as they are
// now, as a helper started for the command gets. One made when the spare
// started would hold the mounts of that moment: where mounts do not
// propagate (most containers), a file system mounted in the workspace
// since would be missing, and one unmounted since still there (and kept
// busy by the waiting spare). Only this thread moves: the runtime's other
// threads stay in tick's mounts, as they stay outside the file rules and
// the filter, which are this thread's too (shield keeps the command out
// of them).
func freshMounts(s spec) error {
	if !s.Namespaces {
		return nil
	}
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("make the mount namespace: %w", err)
	}
	return nil
}

// awaitCommand waits until tick hands a command on fd (or hangs up), and
// returns the signals that end the command (see notify) from then on. A
// signal that comes while nothing is on its way ends the spare helper at
// once: no command was started that it could be meant for (a helper
// started for the next command would not exist yet), and tick, finding
// the spare gone, starts the next command in a helper of its own rather
// than reporting it ended by a signal it never got. A signal that comes
// with a command on its way (tick's Stop right after Start) is the
// command's.
func awaitCommand(fd int) <-chan os.Signal {
	sigs := notify()
	out := make(chan os.Signal, cap(sigs))
	var mu sync.Mutex
	taken := false
	go func() {
		for sig := range sigs {
			mu.Lock()
			if !taken && !readable(fd, false) {
				os.Exit(128 + int(sig.(syscall.Signal)))
			}
			mu.Unlock()
			select {
			case out <- sig:
			default: // as signal.Notify drops what a full channel cannot take
			}
		}
	}()
	readable(fd, true)
	mu.Lock()
	taken = true
	mu.Unlock()
	return out
}

// readable reports whether fd can be read (data, end of file or an
// error), waiting until it can when wait.
func readable(fd int, wait bool) bool {
	var timeout *unix.Timespec
	if !wait {
		timeout = &unix.Timespec{}
	}
	for {
		p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Ppoll(p, timeout, nil)
		if !errors.Is(err, unix.EINTR) {
			return err != nil || n > 0
		}
	}
}

// cut splits an environment entry at its first "=" after the first
// character (Windows-style "=C:=..." entries keep their leading "=").
func cut(kv string) (k, v string, ok bool) {
	for i := 1; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return "", "", false
}

// receive reads one request and its three descriptors from fd and makes
// them the standard streams; false when tick closed the socket or sent
// anything else.
func receive(fd int) (spareRequest, bool) {
	var req spareRequest
	var hdr [8]byte
	oob := make([]byte, unix.CmsgSpace(3*4))
	var n, oobn int
	var err error
	for {
		n, oobn, _, _, err = unix.Recvmsg(fd, hdr[:], oob, unix.MSG_CMSG_CLOEXEC)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil || n == 0 {
		return req, false
	}
	fds, ok := rights(oob[:oobn])
	if !ok {
		return req, false
	}
	if !readFull(fd, hdr[n:]) {
		return req, false
	}
	size := binary.LittleEndian.Uint64(hdr[:])
	if size > spareMax {
		return req, false
	}
	body := make([]byte, size)
	if !readFull(fd, body) || json.Unmarshal(body, &req) != nil {
		return req, false
	}
	for i, got := range fds {
		if err := unix.Dup3(got, i, 0); err != nil {
			return req, false
		}
		unix.Close(got)
	}
	return req, true
}

// readFull fills b from fd; false at end of file or on an error.
func readFull(fd int, b []byte) bool {
	for len(b) > 0 {
		n, err := unix.Read(fd, b)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil, n == 0:
			return false
		}
		b = b[n:]
	}
	return true
}

// rights returns the three descriptors of a control message; false
// (having closed whatever came) unless exactly three came.
func rights(oob []byte) ([3]int, bool) {
	var out [3]int
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return out, false
	}
	var fds []int
	for i := range msgs {
		got, err := unix.ParseUnixRights(&msgs[i])
		if err == nil {
			fds = append(fds, got...)
		}
	}
	if len(fds) != 3 {
		for _, fd := range fds {
			unix.Close(fd)
		}
		return out, false
	}
	copy(out[:], fds)
	return out, true
}
