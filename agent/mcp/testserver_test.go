package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary doubles as a stdio MCP server when this variable is set,
// so that the tests run a real child process without any other program.
const serverEnv = "TICK_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "1" {
		serveStdio()
		return
	}
	os.Exit(m.Run())
}

// serveStdio runs the test server on stdin and stdout until stdin closes.
func serveStdio() {
	fmt.Fprintln(os.Stderr, "test server starting")
	s := testServer()
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "test server:", err)
		os.Exit(1)
	}
}

// testServer is an MCP server with one tool per behaviour under test.
func testServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "tick-test", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
	add := func(name string, schema json.RawMessage, h func(ctx context.Context, args map[string]any) *sdk.CallToolResult) {
		s.AddTool(&sdk.Tool{Name: name, Description: "the " + name + " tool", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args map[string]any
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return h(ctx, args), nil
		})
	}
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	add("echo", obj, func(_ context.Context, a map[string]any) *sdk.CallToolResult {
		return text(fmt.Sprintf("echo: %v", a["text"]))
	})
	add("fail", obj, func(context.Context, map[string]any) *sdk.CallToolResult {
		r := text("the disk is on fire")
		r.IsError = true
		return r
	})
	add("image", obj, func(context.Context, map[string]any) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a picture:"}, &sdk.ImageContent{MIMEType: "image/png", Data: []byte("PNGDATA")}}}
	})
	add("hang", obj, func(ctx context.Context, _ map[string]any) *sdk.CallToolResult {
		<-ctx.Done()
		return text("too late")
	})
	add("crash", obj, func(context.Context, map[string]any) *sdk.CallToolResult {
		fmt.Fprintln(os.Stderr, "panic: simulated crash of the test server")
		os.Exit(3)
		return nil
	})
	add("spawn", obj, func(context.Context, map[string]any) *sdk.CallToolResult {
		cmd := exec.Command("sleep", "600")
		if err := cmd.Start(); err != nil {
			return text("Error: " + err.Error())
		}
		return text(strconv.Itoa(cmd.Process.Pid))
	})
	add("grow", obj, func(context.Context, map[string]any) *sdk.CallToolResult {
		s.AddTool(&sdk.Tool{Name: "extra", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("extra ran"), nil
		})
		return text("grown")
	})
	add("dots.and spaces", obj, func(context.Context, map[string]any) *sdk.CallToolResult { return text("ok") })
	add("badprops", json.RawMessage(`{"type":"object","properties":"oops"}`), func(context.Context, map[string]any) *sdk.CallToolResult { return text("never") })
	return s
}

// stdioServer is the configuration of the test binary as a stdio server.
func stdioServer(name string) Server {
	return Server{Name: name, Command: os.Args[0], Env: map[string]string{serverEnv: "1"}}
}

// startManager starts a Manager for servers and closes it after the test.
func startManager(t *testing.T, timeout time.Duration, servers ...Server) *Manager {
	t.Helper()
	m := Start(Options{Servers: servers, StartTimeout: timeout, Environ: os.Environ(), Dir: t.TempDir(), Version: "test"})
	t.Cleanup(func() { m.Close() })
	return m
}

// findTool returns the offered tool with the given name.
func findTool(t *testing.T, m *Manager, name string) *tool {
	t.Helper()
	ts, _ := m.Tools(context.Background())
	var names []string
	for _, x := range ts {
		if x.Spec().Name == name {
			return x.(*tool)
		}
		names = append(names, x.Spec().Name)
	}
	t.Fatalf("no tool %s among %s; status %+v", name, strings.Join(names, ", "), m.Status())
	return nil
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
