package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestStdioToolCalls(t *testing.T) {
	m := startManager(t, time.Minute, stdioServer("t"))
	ts, notes := m.Tools(context.Background())
	if len(ts) == 0 {
		t.Fatalf("no tools; status %+v", m.Status())
	}
	if !strings.Contains(strings.Join(notes, "\n"), "badprops") {
		t.Errorf("notes %q do not report the tool with a bad schema", notes)
	}
	st := m.Status()[0]
	if st.State != Ready || len(st.Skipped) != 1 || !strings.Contains(st.Skipped[0], `"properties" is not an object`) {
		t.Errorf("status %+v: want ready with badprops skipped", st)
	}
	findTool(t, m, "mcp__t__dots_and_spaces")

	tests := []struct {
		tool, args string
		want       string
		wantErr    string
	}{
		{tool: "echo", args: `{"text":"hi"}`, want: "echo: hi"},
		{tool: "echo", args: ``, want: "echo: <nil>"},
		{tool: "image", args: `{}`, want: "a picture:\n[image image/png, 7 bytes: not shown"},
		{tool: "fail", args: `{}`, wantErr: "the disk is on fire (from MCP server t)"},
		{tool: "echo", args: `[1,2]`, wantErr: "must be one JSON object"},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			out, err := findTool(t, m, "mcp__t__"+tc.tool).Run(context.Background(), json.RawMessage(tc.args))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Run = %q, %v; want error containing %q", out, err, tc.wantErr)
				}
				return
			}
			if err != nil || !strings.HasPrefix(out, tc.want) {
				t.Fatalf("Run = %q, %v; want %q", out, err, tc.want)
			}
		})
	}
}

func TestPreviewForApproval(t *testing.T) {
	m := startManager(t, time.Minute, stdioServer("t"))
	sum, detail, err := findTool(t, m, "mcp__t__echo").Preview(json.RawMessage(`{"text":"x"}`))
	if err != nil || sum != "MCP t: echo" || !strings.Contains(detail, `"text": "x"`) {
		t.Fatalf("Preview = %q, %q, %v", sum, detail, err)
	}
	if !strings.HasPrefix(detail, "the echo tool\n\narguments:\n") {
		t.Errorf("the detail does not start with the tool's description:\n%s", detail)
	}
}

// TestFirstLines: the approval dialog gets the first lines of a tool's
// description, bounded, without control characters.
func TestFirstLines(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, tc := range []struct{ name, desc, want string }{
		{"one line", "Looks up the weather.", "Looks up the weather."},
		{"blank lines skipped", "\n\n  Deletes a row.\n\n  Irreversible.\n", "Deletes a row.\nIrreversible."},
		{"more than three", "a\nb\nc\nd\ne", "a\nb\nc\n…"},
		{"escape sequences dropped", "Reads \x1b[2Jfiles\x1b]0;pwned\x07 fast", "Reads [2Jfiles]0;pwned fast"},
		{"a long line cut", long, long[:200] + "…"},
		{"none", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := firstLines(tc.desc); got != tc.want {
				t.Errorf("firstLines(%q) = %q, want %q", tc.desc, got, tc.want)
			}
		})
	}
}

func TestHangingCallTimesOut(t *testing.T) {
	srv := stdioServer("t")
	srv.Timeout = 300 * time.Millisecond
	m := startManager(t, time.Minute, srv)
	_, err := findTool(t, m, "mcp__t__hang").Run(context.Background(), json.RawMessage(`{}`))
	if err == nil || !strings.Contains(err.Error(), "did not answer hang within 300ms") {
		t.Fatalf("Run err = %v, want a timeout", err)
	}
	if out, err := findTool(t, m, "mcp__t__echo").Run(context.Background(), json.RawMessage(`{"text":"after"}`)); err != nil || out != "echo: after" {
		t.Fatalf("the server is unusable after a timed-out call: %q, %v", out, err)
	}
}

func TestInterruptedCall(t *testing.T) {
	m := startManager(t, time.Minute, stdioServer("t"))
	ctx, cancel := context.WithCancel(context.Background())
	hang := findTool(t, m, "mcp__t__hang")
	done := make(chan error, 1)
	go func() { _, err := hang.Run(ctx, json.RawMessage(`{}`)); done <- err }()
	cancel()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Fatalf("Run err = %v, want context.Canceled", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

func TestCrashedServer(t *testing.T) {
	m := startManager(t, time.Minute, stdioServer("t"))
	echo := findTool(t, m, "mcp__t__echo")
	if _, err := findTool(t, m, "mcp__t__crash").Run(context.Background(), json.RawMessage(`{}`)); err == nil {
		t.Fatal("a call that crashed the server succeeded")
	}
	waitFor(t, "the server to be marked failed", func() bool { return m.Status()[0].State == Failed })
	st := m.Status()[0]
	if !strings.Contains(st.Stderr, "simulated crash") {
		t.Errorf("stderr %q lacks the server's last words", st.Stderr)
	}
	_, err := echo.Run(context.Background(), json.RawMessage(`{"text":"x"}`))
	if err == nil || !strings.Contains(err.Error(), "MCP server t is not running (failed") {
		t.Fatalf("call to a crashed server: %v", err)
	}
	_, notes := m.Tools(context.Background())
	if len(notes) != 1 || !strings.Contains(notes[0], "MCP server t failed") {
		t.Fatalf("notes %q, want one saying the server failed", notes)
	}
	if _, notes := m.Tools(context.Background()); len(notes) != 0 {
		t.Fatalf("the failure was noted twice: %q", notes)
	}
}

func TestFailedStart(t *testing.T) {
	exits := Server{Name: "exits", Command: "sh", Args: []string{"-c", "echo no token >&2; exit 1"}}
	m := startManager(t, time.Minute, Server{Name: "gone", Command: "/nonexistent/server"}, Server{Name: "empty"}, exits)
	ts, notes := m.Tools(context.Background())
	if len(ts) != 0 || len(notes) != 3 {
		t.Fatalf("Tools = %d tools, notes %q; want none and three notes", len(ts), notes)
	}
	if st := m.Status()[1]; !strings.Contains(st.Err, "closed its output before it answered") || st.Stderr != "no token\n" {
		t.Errorf("status of a server that exits at once: %+v", st)
	}
	for _, st := range m.Status() {
		if st.State != Failed || st.Err == "" {
			t.Errorf("status %+v, want failed with a reason", st)
		}
	}
}

// A server slower than the start timeout is left out of the first request
// and joins the next one once it is ready.
func TestSlowServerJoinsLater(t *testing.T) {
	gate := filepath.Join(t.TempDir(), "go")
	slow := Server{Name: "slow", Command: "sh", Args: []string{"-c", `while [ ! -e "$GATE" ]; do sleep 0.05; done; exec "$BIN"`},
		Env: map[string]string{serverEnv: "1", "GATE": gate, "BIN": os.Args[0]}}
	m := startManager(t, 200*time.Millisecond, stdioServer("fast"), slow)
	// The start timeout is short; let the fast server get ready however
	// slow the machine is, so only the gated one is left out.
	waitFor(t, "the fast server", func() bool { r, _ := m.Counts(); return r == 1 })
	ts, notes := m.Tools(context.Background())
	if len(ts) == 0 || len(notes) != 2 || !strings.Contains(notes[1], "MCP server slow is still starting") {
		t.Fatalf("first Tools: %d tools, notes %q", len(ts), notes)
	}
	if r, total := m.Counts(); r != 1 || total != 2 {
		t.Fatalf("Counts = %d/%d, want 1/2", r, total)
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the slow server", func() bool { r, _ := m.Counts(); return r == 2 })
	_, notes = m.Tools(context.Background())
	if len(notes) != 2 || !strings.Contains(notes[0], "slow is ready") || !strings.Contains(notes[1], "badprops") {
		t.Fatalf("notes %q, want the slow server announced ready", notes)
	}
	findTool(t, m, "mcp__slow__echo")
}

// Close kills the server and whatever it started, so nothing outlives tick.
func TestCloseLeavesNoProcess(t *testing.T) {
	m := startManager(t, time.Minute, stdioServer("t"))
	out, err := findTool(t, m, "mcp__t__spawn").Run(context.Background(), json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(out)
	if err != nil {
		t.Fatalf("spawn returned %q", out)
	}
	srv := m.list()[0]
	srv.mu.Lock()
	pid := srv.pid
	srv.mu.Unlock()
	if !alive(pid) || !alive(child) {
		t.Fatalf("server %d or its child %d is not running before Close", pid, child)
	}
	m.Close()
	waitFor(t, "the server and its child to exit", func() bool { return !alive(pid) && !alive(child) })
	if st := m.Status()[0].State; st != Stopped {
		t.Errorf("state after Close = %s, want stopped", st)
	}
}

func TestStreamableHTTPWithHeaders(t *testing.T) {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return testServer() }, nil)
	var sawToken bool
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "unauthorised", http.StatusUnauthorized)
			return
		}
		sawToken = true
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	m := startManager(t, time.Minute, Server{Name: "web", URL: ts.URL + "/mcp?key=hidden", Headers: map[string]string{"Authorization": "Bearer s3cret"}})
	out, err := findTool(t, m, "mcp__web__echo").Run(context.Background(), json.RawMessage(`{"text":"over http"}`))
	if err != nil || out != "echo: over http" || !sawToken {
		t.Fatalf("Run = %q, %v (token seen: %v)", out, err, sawToken)
	}
	if st := m.Status()[0]; st.Transport != "http" || strings.Contains(st.Target, "hidden") {
		t.Errorf("status %+v: want http without the query", st)
	}
	m.Close()
}

// A server that adds a tool says so; the new tool is offered next time.
func TestToolListChanges(t *testing.T) {
	m := startManager(t, time.Minute, stdioServer("t"))
	if _, err := findTool(t, m, "mcp__t__grow").Run(context.Background(), json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the new tool", func() bool {
		for _, n := range m.Status()[0].Tools {
			if n == "mcp__t__extra" {
				return true
			}
		}
		return false
	})
	if out, err := findTool(t, m, "mcp__t__extra").Run(context.Background(), json.RawMessage(`{}`)); err != nil || out != "extra ran" {
		t.Fatalf("Run = %q, %v", out, err)
	}
}

// Close while a server is still starting stops it too.
func TestCloseWhileStarting(t *testing.T) {
	marker := fmt.Sprintf("tick-mcp-starting-%d", time.Now().UnixNano())
	slow := Server{Name: "slow", Command: "sh", Args: []string{"-c", "while :; do sleep 0.05; done", marker}}
	m := startManager(t, time.Minute, slow)
	waitFor(t, "the server to start", func() bool { return len(pidsWith(marker)) > 0 })
	m.Close()
	waitFor(t, "the server to be gone", func() bool { return len(pidsWith(marker)) == 0 })
	if st := m.Status()[0].State; st != Stopped {
		t.Errorf("state after Close = %s, want stopped", st)
	}
}

// pidsWith lists the live processes whose command line contains s.
func pidsWith(s string) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !strings.Contains(string(b), s) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(d)); err == nil && alive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// TestAfterHoldsServersBack checks Options.After: a server is not started
// while it is open (a server of a manager without it, started at the same
// time, is up meanwhile), starts once it is closed, and a manager closed
// before that starts nothing.
func TestAfterHoldsServersBack(t *testing.T) {
	id := time.Now().UnixNano()
	held := fmt.Sprintf("tick-mcp-held-%d", id)
	free := fmt.Sprintf("tick-mcp-free-%d", id)
	never := fmt.Sprintf("tick-mcp-never-%d", id)
	loop := func(name, marker string) Server {
		return Server{Name: name, Command: "sh", Args: []string{"-c", "while :; do sleep 0.05; done", marker}}
	}
	after := make(chan struct{})
	m := Start(Options{Servers: []Server{loop("held", held)}, StartTimeout: time.Minute, Environ: os.Environ(), Dir: t.TempDir(), After: after})
	t.Cleanup(func() { m.Close() })
	startManager(t, time.Minute, loop("free", free))
	waitFor(t, "the server started at once", func() bool { return len(pidsWith(free)) > 0 })
	if pids := pidsWith(held); len(pids) > 0 {
		t.Fatalf("the held server runs before After was closed (pids %v)", pids)
	}
	if st := m.Status()[0].State; st != Starting {
		t.Errorf("held server state %s, want starting", st)
	}
	close(after)
	waitFor(t, "the held server once After was closed", func() bool { return len(pidsWith(held)) > 0 })

	m2 := Start(Options{Servers: []Server{loop("never", never)}, StartTimeout: time.Minute, Environ: os.Environ(), Dir: t.TempDir(), After: make(chan struct{})})
	m2.Close()
	if pids := pidsWith(never); len(pids) > 0 {
		t.Errorf("a manager closed before After started its server (pids %v)", pids)
	}
}
