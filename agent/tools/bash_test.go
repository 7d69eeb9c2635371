package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

func TestBashRun(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	bash := NewBash(ws, Options{})
	tests := []struct {
		name     string
		args     string
		contains []string
		suffix   string
		absent   []string
	}{
		{name: "output and status 0", args: `{"command":"echo hello"}`, contains: []string{"hello\n"}, suffix: "\nexit status 0"},
		{name: "nonzero exit with stderr", args: `{"command":"echo out; echo err >&2; exit 2"}`,
			contains: []string{"out\n", "err\n"}, suffix: "\nexit status 2"},
		{name: "runs in the workspace", args: `{"command":"pwd"}`, contains: []string{ws.Root() + "\n"}},
		{name: "stdin is closed", args: `{"command":"cat; echo after-cat","timeout":20}`,
			contains: []string{"after-cat"}, suffix: "exit status 0"},
		{name: "no output", args: `{"command":"true"}`, contains: []string{"(no output)"}, suffix: "exit status 0"},
		{name: "killed by a signal", args: `{"command":"kill -TERM $$"}`, suffix: "killed by signal: terminated"},
		{name: "invalid UTF-8 sanitised", args: `{"command":"printf 'a\\xff\\xfeb\\n'"}`, contains: []string{"a\uFFFD"}},
		{name: "ANSI escapes removed", args: `{"command":"printf '\\033[31mred\\033[0m plain\\n'"}`,
			contains: []string{"red plain"}, absent: []string{"\x1b"}},
		{name: "carriage return progress", args: `{"command":"printf '10%%\\r50%%\\r100%%\\n'"}`,
			contains: []string{"100%\n"}, absent: []string{"50%"}},
		{name: "timeout as string", args: `{"command":"echo ok","timeout":"30"}`, contains: []string{"ok"}, suffix: "exit status 0"},
		{name: "timeout above max is capped", args: `{"command":"echo ok","timeout":100000}`,
			contains: []string{"above the maximum; using 600s"}, suffix: "exit status 0"},
		{name: "no pager, no prompt", args: `{"command":"echo $PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT"}`, contains: []string{"cat cat 0"}},
		{name: "no controlling terminal", args: `{"command":"exec 3</dev/tty && echo has-tty || echo no-tty"}`,
			contains: []string{"no-tty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := run(t, bash, tt.args)
			if err != nil {
				t.Fatalf("Run(%s): %v", tt.args, err)
			}
			if !utf8.ValidString(got) {
				t.Errorf("result is not valid UTF-8: %q", got)
			}
			for _, s := range tt.contains {
				if !strings.Contains(got, s) {
					t.Errorf("result %q does not contain %q", got, s)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(got, s) {
					t.Errorf("result %q contains %q", got, s)
				}
			}
			if !strings.HasSuffix(got, tt.suffix) {
				t.Errorf("result %q does not end with %q", got, tt.suffix)
			}
		})
	}
}

func TestBashBadArgs(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	bash := NewBash(ws, Options{})
	tests := []struct{ name, args, want string }{
		{"malformed JSON", `{"command": "ls"`, `invalid arguments for bash: malformed JSON`},
		{"not an object", `["ls"]`, `must be a JSON object, not an array`},
		{"empty", ``, `"command" is required; expected {"command": "..."`},
		{"misspelt field", `{"cmd":"ls"}`, `"command" is required (got "cmd")`},
		{"wrong type", `{"command":5}`, `"command" must be a string, not a number`},
		{"blank command", `{"command":"  "}`, `"command" is empty`},
		{"bad timeout", `{"command":"ls","timeout":"soon"}`, `"timeout" must be a number, not a string`},
		{"negative timeout", `{"command":"ls","timeout":-1}`, `"timeout" must be a positive number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := run(t, bash, tt.args)
			var ae *ArgError
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run(%s) = %q, %v; want an *ArgError containing %q", tt.args, got, err, tt.want)
			}
			if _, _, perr := bash.Preview(json.RawMessage(tt.args)); perr == nil {
				t.Errorf("Preview(%s) accepted bad arguments", tt.args)
			}
		})
	}
}

func TestBashPreview(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	var tool Tool = NewBash(ws, Options{})
	ap, ok := tool.(Approvable)
	if !ok {
		t.Fatal("bash does not implement Approvable")
	}
	for _, tt := range []struct{ name, command, summary string }{
		{"one line", "go test ./...", "go test ./..."},
		{"several lines", "cd x\nmake all", "cd x …"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"command": tt.command})
			summary, detail, err := ap.Preview(args)
			if err != nil || summary != tt.summary || detail != tt.command {
				t.Errorf("Preview = %q, %q, %v; want %q, %q", summary, detail, err, tt.summary, tt.command)
			}
		})
	}
}

// waitGone waits until the process pid no longer runs (it may linger as a
// zombie when nobody reaps it, which counts as gone). It fails the test if
// the process is still running after a generous deadline.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if !processRunning(pid) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d is still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processRunning reports whether pid exists and is not a zombie.
func processRunning(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

// readPID waits for the file holding a pid a command wrote, and returns it.
func readPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if s := strings.TrimSpace(string(b)); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("pid file %s holds %q", path, b)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command did not write %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// killLater makes sure a stray test process is gone when the test ends.
func killLater(t *testing.T, pid int) {
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
}

func TestBashTimeoutKillsProcessGroup(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	bash := NewBash(ws, Options{})
	got, err := run(t, bash, `{"command":"sleep 30 & echo $! > pid; echo started; wait","timeout":0.5}`)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	pid := readPID(t, filepath.Join(ws.Root(), "pid"))
	killLater(t, pid)
	if !strings.Contains(got, "started\n") || !strings.Contains(got, "killed: timed out after 0.5s") {
		t.Errorf("result %q lacks the output or the timeout", got)
	}
	waitGone(t, pid)
}

func TestBashCancelKillsProcessGroup(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	bash := NewBash(ws, Options{})
	tests := []struct{ name, command string }{
		// "started" is printed before the pid file is written: the test
		// cancels as soon as it reads the file, and the output must hold it.
		{"grandchild in the group", `sleep 30 & p=$!; echo started; echo $p > pid; wait`},
		// A process that left the group keeps the output pipe open; Run
		// must still return.
		{"escaped grandchild holds the pipe", `setsid sleep 300 & p=$!; echo started; echo $p > pid; sleep 30`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type result struct {
				out string
				err error
			}
			done := make(chan result, 1)
			args, _ := json.Marshal(map[string]string{"command": "cd " + dir + " || exit 1; " + tt.command})
			go func() {
				out, err := bash.Run(ctx, args)
				done <- result{out, err}
			}()
			pid := readPID(t, pidFile)
			killLater(t, pid)
			cancel()
			var r result
			select {
			case r = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Run did not return after cancel")
			}
			if r.err != nil {
				t.Fatalf("Run: %v", r.err)
			}
			if !strings.HasSuffix(r.out, "interrupted by user") || !strings.Contains(r.out, "started") {
				t.Errorf("result %q lacks the output or the interruption", r.out)
			}
			if tt.name == "grandchild in the group" {
				waitGone(t, pid)
			}
		})
	}
}

func TestBashBackgroundHolderDoesNotBlock(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	bash := NewBash(ws, Options{})
	got, err := run(t, bash, `{"command":"sleep 300 & echo $! > pid; echo started"}`)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	killLater(t, readPID(t, filepath.Join(ws.Root(), "pid")))
	for _, want := range []string{"started", "background process still holds the output", "exit status 0"} {
		if !strings.Contains(got, want) {
			t.Errorf("result %q does not contain %q", got, want)
		}
	}
}

func TestBashCancelledBeforeStart(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewBash(ws, Options{}).Run(ctx, json.RawMessage(`{"command":"touch ran"}`))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context: err = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "ran")); err == nil {
		t.Error("the command ran although the context was cancelled")
	}
}

var cutRE = regexp.MustCompile(`\n\.\.\. \[([\d,]+) bytes \(([\d,]+) lines\) cut from the middle of the output\] \.\.\.\n\n`)

func TestBashOutputCap(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	const n = 150000 // seq 1 150000 prints about 1 MB
	total := 0
	for i := 1; i <= n; i++ {
		total += len(strconv.Itoa(i)) + 1
	}
	for _, capBytes := range []int{DefaultOutputCap, 1000} {
		t.Run(fmt.Sprint(capBytes), func(t *testing.T) {
			bash := NewBash(ws, Options{OutputCap: capBytes})
			got, err := run(t, bash, fmt.Sprintf(`{"command":"seq 1 %d"}`, n))
			if err != nil {
				t.Fatal(err)
			}
			body, ok := strings.CutSuffix(got, "exit status 0")
			if !ok {
				t.Fatalf("result does not end with the exit status: %q", got[max(0, len(got)-200):])
			}
			loc := cutRE.FindStringSubmatchIndex(body)
			if loc == nil {
				t.Fatalf("no cut message in %q", body[:min(len(body), 300)])
			}
			head, tail := body[:loc[0]], body[loc[1]:]
			if len(head)+len(tail) > capBytes {
				t.Errorf("kept %d bytes, more than the cap %d", len(head)+len(tail), capBytes)
			}
			if len(head)+len(tail) < capBytes/2 {
				t.Errorf("kept only %d bytes of %d allowed", len(head)+len(tail), capBytes)
			}
			headLines := strings.Split(strings.TrimSuffix(head, "\n"), "\n")
			tailLines := strings.Split(strings.TrimSuffix(tail, "\n"), "\n")
			if headLines[0] != "1" || tailLines[len(tailLines)-1] != strconv.Itoa(n) {
				t.Errorf("head starts %q, tail ends %q", headLines[0], tailLines[len(tailLines)-1])
			}
			lastHead, _ := strconv.Atoi(headLines[len(headLines)-1])
			firstTail, _ := strconv.Atoi(tailLines[0])
			cutBytes, _ := strconv.Atoi(strings.ReplaceAll(body[loc[2]:loc[3]], ",", ""))
			cutLines, _ := strconv.Atoi(strings.ReplaceAll(body[loc[4]:loc[5]], ",", ""))
			if want := firstTail - lastHead - 1; cutLines != want {
				t.Errorf("says %d lines cut, but %d..%d is %d lines", cutLines, lastHead, firstTail, want)
			}
			if want := total - len(head) - len(tail); cutBytes != want {
				t.Errorf("says %d bytes cut, want %d", cutBytes, want)
			}
		})
	}
}

func BenchmarkBashEcho(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	bash := NewBash(ws, Options{})
	args := json.RawMessage(`{"command":"echo hi"}`)
	for b.Loop() {
		if _, err := bash.Run(context.Background(), args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBashOutputCap(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	bash := NewBash(ws, Options{})
	args := json.RawMessage(`{"command":"head -c 10000000 /dev/zero | tr '\\0' 'a' | fold -w 99"}`)
	for b.Loop() {
		if _, err := bash.Run(context.Background(), args); err != nil {
			b.Fatal(err)
		}
	}
}
