// Package mcptest provides the real MCP test server that tick's tests run:
// @modelcontextprotocol/server-everything, installed with npm at a pinned
// version into a cache directory shared by test runs.
//
// Everything returns the path of the server's entry script. It uses
// $TICK_MCP_EVERYTHING when set (what .ci/run installs), otherwise installs
// the package with npm under the user's cache directory once. A missing
// node or npm fails the test with how to install them: the tests do not
// skip.
package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Version is the pinned version of @modelcontextprotocol/server-everything.
const Version = "2026.8.31"

// Package is the npm package of the test server.
const Package = "@modelcontextprotocol/server-everything"

var install sync.Mutex // one npm install per test binary

// Everything returns the path of server-everything's dist/index.js,
// installing the pinned version with npm when needed.
func Everything(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("TICK_MCP_EVERYTHING"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("TICK_MCP_EVERYTHING=%s: %v", p, err)
		}
		return p
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to run the MCP end-to-end tests: install Node.js (apt-get install nodejs npm) or run .ci/run", tool)
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "tick-test", "server-everything-"+Version)
	entry := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	install.Lock()
	defer install.Unlock()
	if _, err := os.Stat(entry); err == nil {
		return entry
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("create the npm cache dir: %v", err)
	}
	unlock := lockDir(t, dir) // test binaries of several packages run at once
	defer unlock()
	if _, err := os.Stat(entry); err == nil {
		return entry
	}
	start := time.Now()
	cmd := exec.Command("npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", Package+"@"+Version)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm install %s@%s into %s: %v\n%s", Package, Version, dir, err, out)
	}
	t.Logf("installed %s@%s in %s", Package, Version, time.Since(start).Round(time.Millisecond))
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("npm installed %s but %s is missing: %v", Package, entry, err)
	}
	return entry
}
