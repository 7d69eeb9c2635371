package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent/mcp/mcptest"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EMCPInTheApp drives the full-screen app with two MCP servers, one
// that never finishes starting: the status bar counts them, /mcp lists
// them, a custom command sends its prompt, which waits the start timeout
// for the stuck server and goes without it; the model's MCP call is
// approved and its result shown (a short mcp_start_timeout keeps the
// wait brief); SIGTERM then ends tick (exit 143) with no
// server left running.
func TestE2EMCPInTheApp(t *testing.T) {
	entry := mcptest.Everything(t)
	marker := runMarker("e2e-mcp")
	home, ws := t.TempDir(), t.TempDir()
	const startTimeout = 3 * time.Second
	cfg := fmt.Sprintf(`mcp_start_timeout = %q
[mcp_servers.everything]
command = "node"
args = [%q, "stdio", %q]
[mcp_servers.stuck]
command = "node"
args = ["-e", "setInterval(() => {}, 1000)", %q]
`, startTimeout.String(), entry, marker, marker+"-stuck")
	for path, text := range map[string]string{
		filepath.Join(home, ".config", "tick", "config.toml"): cfg,
		filepath.Join(ws, ".tick", "commands", "shout.md"):    "---\ndescription: Echo a word through MCP\n---\nUse the echo tool with the message $1.\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, pid := range liveProcessesWith(marker) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	srv := providertest.New(t)
	script(t, srv,
		step{reply: providertest.Reply{ToolCalls: []providertest.Call{{Name: "mcp__everything__echo", Args: `{"message":"ahoy"}`}}}},
		textStep("The server echoed ahoy."),
	)
	p := startAppAt(t, srv, home, ws)
	p.waitFor("mcp 1/2")
	p.prompt("/mcp")
	p.waitFor("everything · ready · stdio node", "mcp__everything__echo", "stuck · starting")

	p.typeText("/sh")
	p.waitFor("/shout", "Echo a word through MCP")
	p.send("BSpace", "BSpace", "BSpace")
	p.prompt("/shout ahoy")
	// The stuck server holds the first prompt for the start timeout, then
	// the prompt goes without it and the chat says so.
	p.waitFor("waiting for MCP servers to start (at most 3s)")
	if !waitFor(startTimeout+20*time.Second, func() bool { return strings.Contains(p.screen(), "Allow mcp__everything__echo?") }) {
		t.Fatalf("the prompt never went on without the stuck server:\n%s", p.screen())
	}
	p.waitFor("MCP server stuck is still starting", "this request goes without its tools", "MCP everything: echo")
	time.Sleep(deliberatePause) // the dialog waits for a deliberate key
	p.send("y")
	p.waitFor("Echo: ahoy", "The server echoed ahoy.")
	reqs := srv.Requests()
	if got := reqs[0].LastUser(); got != "Use the echo tool with the message ahoy." {
		t.Errorf("the custom command sent %q", got)
	}
	if got := reqs[1].Last().Content; got != "Echo: ahoy" {
		t.Errorf("the model got %q as the echo result", got)
	}

	var pids []int // tick itself, not the tmux server that started it
	for _, pid := range liveProcessesWith(sharedTick(t), ws) {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && strings.HasPrefix(string(b), sharedTick(t)+"\x00") {
			pids = append(pids, pid)
		}
	}
	if len(pids) != 1 {
		t.Fatalf("tick processes %v, want one", pids)
	}
	if err := syscall.Kill(pids[0], syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if !waitFor(30*time.Second, func() bool { gone, _ := p.dead(); return gone }) {
		t.Fatalf("tick did not exit after SIGTERM:\n%s", p.screen())
	}
	if _, how := p.dead(); how != "exit status 143" {
		t.Errorf("tick ended with %s, want exit status 143", how)
	}
	if left := liveProcessesWith(marker); len(left) > 0 {
		t.Fatalf("MCP servers %v outlived tick", left)
	}
	if strings.Contains(p.screen(), "panic") {
		t.Fatalf("tick panicked:\n%s", p.screen())
	}
}
