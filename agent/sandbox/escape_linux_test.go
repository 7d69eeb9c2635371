package sandbox

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// escapeArg makes the test binary try one network escape from inside the
// sandbox (see escape); it prints ESCAPED when the attempt got through.
const escapeArg = "__escape"

// escape tries to reach addr with a socket of the given kind: "mptcp",
// "udp" (a datagram, which needs no listener to be sent), or "unix" (a
// socket path).
func escape(args []string) int {
	kind, addr := args[0], args[1]
	var err error
	switch kind {
	case "mptcp", "udp":
		ap, perr := net.ResolveUDPAddr("udp4", addr)
		if perr != nil {
			fmt.Println(perr)
			return 2
		}
		typ, proto := unix.SOCK_STREAM, unix.IPPROTO_MPTCP
		if kind == "udp" {
			typ, proto = unix.SOCK_DGRAM, 0
		}
		var fd int
		fd, err = unix.Socket(unix.AF_INET, typ, proto)
		if err == nil {
			sa := &unix.SockaddrInet4{Port: ap.Port}
			copy(sa.Addr[:], ap.IP.To4())
			if err = unix.Connect(fd, sa); err == nil && kind == "udp" {
				_, err = unix.Write(fd, []byte("ESCAPED"))
			}
		}
	case "loopback": // a server of its own on loopback, and a client
		ln, lerr := net.Listen("tcp", "127.0.0.1:0")
		if lerr != nil {
			fmt.Println("blocked:", lerr)
			return 1
		}
		go func() {
			if c, err := ln.Accept(); err == nil {
				c.Write([]byte("hi"))
				c.Close()
			}
		}()
		c, derr := net.Dial("tcp", ln.Addr().String())
		if derr != nil {
			fmt.Println("blocked:", derr)
			return 1
		}
		c.Close()
		fmt.Println("LOOPBACK OK")
		return 0
	case "unix":
		var c net.Conn
		c, err = net.Dial("unix", addr)
		if err == nil {
			_, err = c.Write([]byte("ESCAPED"))
		}
	}
	if err != nil {
		fmt.Println("blocked:", err)
		return 1
	}
	fmt.Println("ESCAPED")
	return 0
}

// listeners starts a TCP and a UDP listener on loopback and Unix sockets
// in a directory of /tmp and of /run (where tmux's and docker's live) and
// reports whether anything ever reached one of them.
type listeners struct {
	tcp   net.Listener
	udp   net.PacketConn
	socks []net.Listener
	hit   chan string
}

func startListeners(t *testing.T) *listeners {
	t.Helper()
	l := &listeners{hit: make(chan string, 16)}
	var err error
	if l.tcp, err = net.Listen("tcp4", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	if l.udp, err = net.ListenPacket("udp4", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{t.TempDir(), mkdirRun(t)} {
		s, err := net.Listen("unix", filepath.Join(dir, "agent.sock"))
		if err != nil {
			t.Fatal(err)
		}
		l.socks = append(l.socks, s)
	}
	for _, s := range append([]net.Listener{l.tcp}, l.socks...) {
		go func(s net.Listener) {
			for {
				c, err := s.Accept()
				if err != nil {
					return
				}
				l.hit <- s.Addr().String()
				c.Close()
			}
		}(s)
	}
	go func() {
		buf := make([]byte, 64)
		for {
			if _, _, err := l.udp.ReadFrom(buf); err != nil {
				return
			}
			l.hit <- "udp"
		}
	}()
	t.Cleanup(func() {
		l.tcp.Close()
		l.udp.Close()
		for _, s := range l.socks {
			s.Close()
		}
	})
	return l
}

// mkdirRun makes a directory under /run, like docker's or the user's
// runtime directory.
func mkdirRun(t *testing.T) string {
	t.Helper()
	parent := "/run"
	if unix.Access(parent, unix.W_OK) != nil { // not root: the user's runtime directory
		parent = filepath.Join("/run/user", strconv.Itoa(os.Getuid()))
	}
	dir, err := os.MkdirTemp(parent, "tick-test-")
	if err != nil {
		t.Fatalf("make a directory in %s: %v", parent, err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// check fails the test if anything reached a listener.
func (l *listeners) check(t *testing.T) {
	t.Helper()
	time.Sleep(50 * time.Millisecond) // a datagram in flight
	select {
	case h := <-l.hit:
		t.Errorf("a command reached %s from inside the sandbox", h)
	default:
	}
}

// TestEscapes tries to leave the workspace-write sandbox in every way the
// issue lists; each attempt must fail and leave no trace outside.
func TestEscapes(t *testing.T) {
	r, ws := testRunner(t, WorkspaceWrite)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	// Outside the workspace and visible inside (not under a hidden /tmp).
	outside, err := os.MkdirTemp(home, ".tick-escape-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "planted")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	bashrc := filepath.Join(home, ".bashrc")
	before, _ := os.ReadFile(bashrc)
	l := startListeners(t)
	exe := copyTestBinary(t, ws) // the test binary's own directory is hidden inside
	tcpPort := strconv.Itoa(l.tcp.Addr().(*net.TCPAddr).Port)
	udpAddr := l.udp.LocalAddr().String()

	tests := []struct{ name, script string }{
		{"absolute path", "echo x > " + filepath.Join(outside, "abs")},
		{"absolute path in /tmp", "echo x > /tmp/tick-escape-abs"},
		{"dot-dot", "echo x > ../tick-escape-dotdot && ls ../tick-escape-dotdot"},
		{"overwrite outside", "echo pwned > " + victim},
		{"symlink planted before", "echo x > planted/via-symlink"},
		{"symlink planted inside", "ln -s " + outside + " mine && echo x > mine/via-own-symlink"},
		{"hard link", "ln " + victim + " hard && echo pwned >> hard"},
		{"rename out", "echo x > f && mv f " + filepath.Join(outside, "moved")},
		{".git hook", "printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit"},
		{".git config", "echo '[core]' >> .git/config"},
		{"~/.bashrc", "echo '# tick-escape-test' >> ~/.bashrc"},
		{"tcp to loopback", "exec 3<>/dev/tcp/127.0.0.1/" + tcpPort + " && echo ESCAPED"},
		{"udp to loopback", "echo ESCAPED > /dev/udp/" + strings.Replace(udpAddr, ":", "/", 1)},
		{"mptcp to loopback", exe + " " + escapeArg + " mptcp 127.0.0.1:" + tcpPort},
		{"udp syscall", exe + " " + escapeArg + " udp " + udpAddr},
		{"unix socket in /tmp", exe + " " + escapeArg + " unix " + l.socks[0].Addr().String()},
		{"unix socket in /run", exe + " " + escapeArg + " unix " + l.socks[1].Addr().String()},
		{"another process's environment", "cat /proc/" + strconv.Itoa(os.Getpid()) + "/environ"},
		{"signal outside", "kill -CONT " + strconv.Itoa(os.Getpid())},
		{"ptrace", "exec 3>/proc/" + strconv.Itoa(os.Getpid()) + "/mem"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, code := runIn(t, r, "", tt.script)
			t.Logf("exit %d: %s", code, out)
			if code == 0 || strings.Contains(out, "ESCAPED") {
				t.Errorf("the escape worked (exit %d):\n%s", code, out)
			}
		})
	}
	l.check(t)
	for _, f := range []string{"abs", "moved", "via-symlink", "via-own-symlink"} {
		if _, err := os.Lstat(filepath.Join(outside, f)); err == nil {
			t.Errorf("%s was written outside the workspace", f)
		}
	}
	for _, f := range []string{"/tmp/tick-escape-abs", filepath.Join(filepath.Dir(ws), "tick-escape-dotdot"), filepath.Join(ws, ".git", "hooks", "pre-commit")} {
		if _, err := os.Lstat(f); err == nil {
			t.Errorf("%s was written", f)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "original\n" {
		t.Errorf("the file outside was changed to %q", b)
	}
	if after, _ := os.ReadFile(bashrc); string(after) != string(before) {
		t.Errorf("~/.bashrc was changed")
		_ = os.WriteFile(bashrc, before, 0o644)
	}
}

// TestLoopbackNetwork allows network = "loopback": a command may serve
// and connect on a loopback of its own, but still reaches none of the
// host's services, TCP or Unix.
func TestLoopbackNetwork(t *testing.T) {
	exe := helperFor(t)
	ws := t.TempDir()
	p := Policy{Mode: WorkspaceWrite, Workspace: ws, TempDir: t.TempDir(), Network: NetworkLoopback}
	r := NewRunner(p, Probe(exe, p))
	esc := copyTestBinary(t, ws)
	l := startListeners(t)
	tcpPort := strconv.Itoa(l.tcp.Addr().(*net.TCPAddr).Port)
	if out, code := runIn(t, r, "", esc+" "+escapeArg+" loopback x"); code != 0 || !strings.Contains(out, "LOOPBACK OK") {
		t.Errorf("a server and client on the sandbox's own loopback failed (exit %d):\n%s", code, out)
	}
	for _, script := range []string{
		"exec 3<>/dev/tcp/127.0.0.1/" + tcpPort + " && echo ESCAPED",
		esc + " " + escapeArg + " unix " + l.socks[0].Addr().String(),
		esc + " " + escapeArg + " unix " + l.socks[1].Addr().String(),
	} {
		if out, code := runIn(t, r, "", script); code == 0 || strings.Contains(out, "ESCAPED") {
			t.Errorf("%s: reached the host (exit %d):\n%s", script, code, out)
		}
	}
	l.check(t)
}

// copyTestBinary copies the test binary into dir and returns the copy.
func copyTestBinary(t *testing.T, dir string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "escaper")
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestForeignArchitectureKilled runs a 32-bit static binary, which would
// use the i386 syscall numbers (socketcall) past a filter that checked
// only x86-64's: the filter kills it before its first syscall.
func TestForeignArchitectureKilled(t *testing.T) {
	if nativeArch != unix.AUDIT_ARCH_X86_64 {
		t.Skip("the 32-bit check is for x86-64")
	}
	r, dir := testRunner(t, WorkspaceWrite) // the binary must be visible inside
	src := filepath.Join(dir, "net32.c")
	prog := `#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>
int main(void) {
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET; a.sin_port = htons(9); a.sin_addr.s_addr = htonl(0x7f000001);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0) write(1, "ESCAPED\n", 8);
	write(1, "alive\n", 6);
	return 0;
}
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "net32")
	if out, err := exec.Command("gcc", "-m32", "-static", "-o", bin, src).CombinedOutput(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("gcc -m32 -static (gcc-multilib) is needed; .ci/run installs it: %v\n%s", err, out)
		}
		t.Skipf("cannot build a 32-bit static binary here (install gcc-multilib): %v", err)
	}
	if out, err := exec.Command(bin).CombinedOutput(); err != nil || !strings.Contains(string(out), "alive") {
		t.Fatalf("the 32-bit binary does not run outside the sandbox: %v\n%s", err, out)
	}
	cmd := r.Command("", bin, []string{"PATH=" + os.Getenv("PATH")})
	out, err := cmd.CombinedOutput()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if strings.Contains(string(out), "alive") || !ws.Signaled() || ws.Signal() != syscall.SIGSYS {
		t.Errorf("the 32-bit binary ran: %v, output %q", err, out)
	}
}

// TestGoTestPassesInside runs a Go module's tests inside the sandbox, with
// the real build cache.
func TestGoTestPassesInside(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("go is not on PATH")
	}
	exe, _ := os.Executable()
	ws := t.TempDir()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.21\n",
		"m.go":          "package m\n\nfunc Add(a, b int) int { return a + b }\n",
		"m_test.go":     "package m\n\nimport (\"os\"; \"testing\")\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 { t.Fatal(\"bad\") }\n\tf, err := os.CreateTemp(\"\", \"x\")\n\tif err != nil { t.Fatal(err) }\n\tf.Close()\n\tif err := os.WriteFile(t.TempDir()+\"/y\", []byte(\"y\"), 0o644); err != nil { t.Fatal(err) }\n}\n",
		"sub/s.go":      "package sub\n\nfunc Two() int { return 2 }\n",
		"sub/s_test.go": "package sub\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) { if Two() != 2 { t.Fatal(\"bad\") } }\n",
	}
	for name, body := range files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := Policy{Mode: WorkspaceWrite, Workspace: ws, TempDir: t.TempDir(), CacheDir: cache}
	r := NewRunner(p, Probe(exe, p))
	env := []string{"PATH=" + filepath.Dir(gobin) + ":" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod"}
	for _, k := range []string{"GOROOT", "GOPATH", "GOMODCACHE", "GOCACHE"} {
		if v := os.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	out, code := runIn(t, r, "", "go test ./...", env...)
	if code != 0 || !strings.Contains(out, "ok  \texample.com/m\t") || !strings.Contains(out, "ok  \texample.com/m/sub\t") {
		t.Fatalf("go test ./... failed inside the sandbox (exit %d):\n%s", code, out)
	}
}

// TestInheritedDescriptorsClosed: a descriptor tick inherited without
// close-on-exec (from the shell or the program that started it: a file
// outside the workspace open for writing, a socket connected outside)
// must not reach a sandboxed command, which would write through it past
// the file rules and the network namespace.
func TestInheritedDescriptorsClosed(t *testing.T) {
	r, _ := testRunner(t, WorkspaceWrite)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	outside, err := os.MkdirTemp(home, ".tick-inherit-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	victim := filepath.Join(outside, "victim")
	fd, err := unix.Open(victim, unix.O_WRONLY|unix.O_CREAT, 0o644) // no O_CLOEXEC: inherited across exec
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	n := strconv.Itoa(fd)
	for _, m := range []Mode{WorkspaceWrite, ReadOnly} {
		out, code := runIn(t, r, m, "echo ESCAPED >&"+n+" && echo wrote")
		if b, _ := os.ReadFile(victim); len(b) > 0 || strings.Contains(out, "wrote") {
			t.Errorf("%s: a command wrote outside through inherited descriptor %s (exit %d): file holds %q\n%s", m, n, code, b, out)
		}
	}
}
