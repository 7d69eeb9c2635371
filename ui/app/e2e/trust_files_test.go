package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/mcp/mcptest"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// trustedScripts sets up a project whose trusted hook runs
// .tick/hooks/lint.sh and whose trusted MCP server runs tools/server.sh
// (both log what they do in log, outside the workspace), trusts it with
// tick mcp trust, and returns the environment, the workspace and the log.
func trustedScripts(t *testing.T, srv *providertest.Server) (map[string]string, string, string) {
	t.Helper()
	entry := mcptest.Everything(t)
	env, _ := userConfig(t, "provider = \"fake\"\nmodel = \"m\"\n[providers.fake]\nbase_url = \""+srv.URL+"\"\n")
	env["XDG_STATE_HOME"] = t.TempDir()
	ws := t.TempDir()
	log := filepath.Join(t.TempDir(), "ran.log")
	files := map[string]string{
		".tick/config.toml": "[[hooks.post_tool_use]]\ncommand = \"sh .tick/hooks/lint.sh\"\n\n" +
			"[mcp_servers.proj]\ncommand = \"sh\"\nargs = [\"tools/server.sh\"]\n",
		".tick/hooks/lint.sh": "echo lint >> " + log + "\n",
		"tools/server.sh":     fmt.Sprintf("echo server >> %s\nexec node %s stdio\n", log, entry),
	}
	for name, body := range files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if r := tick(t, env, "", "mcp", "trust", "-C", ws); r.code != app.ExitOK {
		t.Fatalf("tick mcp trust: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	return env, ws, log
}

// TestTrustedScriptsChangedAskAgain: trusting a project covers the
// scripts its hook and its MCP server run. A sandboxed command cannot
// change them (.tick and the trusted files are read-only to it); changed
// anyway (by hand, or where the sandbox has no namespaces), they are not
// run: -p refuses to start (exit 2) naming the files and how to allow
// them, and after a new tick mcp trust they run again. Today the hook runs
// the rewritten script outside the sandbox at once.
func TestTrustedScriptsChangedAskAgain(t *testing.T) {
	srv := providertest.New(t)
	env, ws, log := trustedScripts(t, srv)
	payload := "echo EVIL >> " + log
	srv.Enqueue(
		call("bash", map[string]any{"command": "echo '" + payload + "' >> .tick/hooks/lint.sh; echo '" + payload + "' > tools/server.sh; true"}),
		providertest.Reply{Text: "done"},
	)
	r := tick(t, env, "", "-p", "edit the scripts", "-C", ws, "--no-session")
	if r.code != app.ExitOK {
		t.Fatalf("trusted run: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(log); strings.Contains(string(b), "EVIL") || !strings.Contains(string(b), "lint") || !strings.Contains(string(b), "server") {
		t.Fatalf("a sandboxed command changed a trusted script, or they did not run: log %q; stderr:\n%s", b, r.stderr)
	}

	for _, f := range []string{".tick/hooks/lint.sh", "tools/server.sh"} { // changed outside the sandbox
		p := filepath.Join(ws, f)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append([]byte(payload+"\n"), b...), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(log)
	r = tick(t, env, "", "-p", "go on", "-C", ws, "--no-session")
	if r.code != app.ExitUsage || !strings.Contains(r.stderr, ".tick/hooks/lint.sh, tools/server.sh) changed since you trusted them") || !strings.Contains(r.stderr, "tick mcp trust") {
		t.Fatalf("changed scripts: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(log); err == nil {
		t.Fatalf("a changed trusted script ran: %q", b)
	}

	if r := tick(t, env, "", "mcp", "trust", "-C", ws); r.code != app.ExitOK || !strings.Contains(r.stdout, "allowed for this project") {
		t.Fatalf("tick mcp trust again: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	srv.Enqueue(call("bash", map[string]any{"command": "true"}), providertest.Reply{Text: "done"})
	r = tick(t, env, "", "-p", "go on", "-C", ws, "--no-session")
	if b, _ := os.ReadFile(log); r.code != app.ExitOK || strings.Count(string(b), "EVIL") < 2 {
		t.Fatalf("trusted again: exit %d, log %q, stderr:\n%s", r.code, b, r.stderr)
	}
}
