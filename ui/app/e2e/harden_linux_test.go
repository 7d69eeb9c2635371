package e2e

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEnvironHidden: another process of the same user (a command the
// model runs, on a machine where the sandbox has no namespaces) cannot
// read tick's /proc/PID/environ, which holds the API key.
func TestEnvironHidden(t *testing.T) {
	bin := sharedTick(t)
	// A server that accepts and never answers keeps tick waiting.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	// Root may read anything; both sides run as an ordinary user then.
	var cred *syscall.Credential
	if os.Getuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	ws, err := os.MkdirTemp("", "tick-environ-") // t.TempDir's parent is private
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(ws) })
	if err := os.Chmod(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	// A copy the other user can run (the build directory is private).
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	exe := ws + "/tick"
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-p", "hi", "--no-session", "-C", ws, "--base-url", "http://"+ln.Addr().String()+"/v1")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + ws, "OPENAI_API_KEY=sk-tick-environ-test"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	time.Sleep(500 * time.Millisecond) // past start-up
	cat := exec.Command("cat", "/proc/"+strconv.Itoa(cmd.Process.Pid)+"/environ")
	cat.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	out, err := cat.CombinedOutput()
	if strings.Contains(string(out), "sk-tick-environ-test") {
		t.Fatalf("another process read tick's environment (the API key): %v", err)
	}
	if err == nil {
		t.Fatalf("reading tick's environ worked: %q", out)
	}
}
