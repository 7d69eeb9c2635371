package e2e

import (
	"bufio"
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

	"github.com/tick-agent/tick/ui/app"

	"github.com/tick-agent/tick/agent/mcp/mcptest"
	"github.com/tick-agent/tick/provider/providertest"
)

// everythingConfig is a user config file whose MCP server "everything" is
// server-everything, over stdio (with marker as an extra argument, so the
// test finds its own server's process) or at url.
func everythingConfig(t *testing.T, srv *providertest.Server, entry, marker, url string) map[string]string {
	t.Helper()
	server := fmt.Sprintf("command = \"node\"\nargs = [%q, \"stdio\", %q]\n", entry, marker)
	if url != "" {
		server = fmt.Sprintf("url = %q\n", url)
	}
	env, _ := userConfig(t, "provider = \"fake\"\nmodel = \"m\"\n[providers.fake]\nbase_url = \""+srv.URL+"\"\n[mcp_servers.everything]\n"+server)
	env["XDG_STATE_HOME"] = t.TempDir()
	return env
}

// runMarker returns a string unique to this test in this run, for a
// test's processes' command lines: other packages' tests, and other runs
// of the suite on the same machine, start the same servers at the same
// time, so a process-table scan must match only this test's processes.
func runMarker(name string) string {
	return fmt.Sprintf("tick-%s-%d-%d", name, os.Getpid(), time.Now().UnixNano())
}

// liveProcessesWith lists the running processes whose command line contains
// every one of parts, by pid.
func liveProcessesWith(parts ...string) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []int
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil {
			continue
		}
		cmdline := strings.ReplaceAll(string(b), "\x00", " ")
		match := true
		for _, p := range parts {
			match = match && strings.Contains(cmdline, p)
		}
		if !match {
			continue
		}
		if st, err := os.ReadFile(filepath.Join(d, "stat")); err == nil {
			if i := strings.LastIndexByte(string(st), ')'); i > 0 && i+2 < len(st) && st[i+2] == 'Z' {
				continue // a zombie has exited
			}
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		pids = append(pids, pid)
	}
	return pids
}

// checkEchoReachedModel runs the echo scenario: the model calls the MCP
// echo tool and the tiny-image tool, and their results must come back to
// it as tool messages.
func checkEchoReachedModel(t *testing.T, srv *providertest.Server, env map[string]string) {
	t.Helper()
	srv.Enqueue(
		call("mcp__everything__echo", map[string]any{"message": "hello from tick"}),
		call("mcp__everything__get-tiny-image", map[string]any{}),
		providertest.Reply{Text: "all done"},
	)
	r := tick(t, env, "", "-p", "use the echo tool", "-C", t.TempDir(), "--yolo", "--no-session")
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "all done") {
		t.Fatalf("exit %d\nstdout %q\nstderr %s", r.code, r.stdout, r.stderr)
	}
	checkValid(t, srv)
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	var spec *providertest.ToolSpec
	for i, s := range reqs[0].ToolSpecs {
		if s.Name == "mcp__everything__echo" {
			spec = &reqs[0].ToolSpecs[i]
		}
	}
	if spec == nil || !strings.Contains(spec.Description, "Echoes back the input string") || !strings.Contains(string(spec.Parameters), `"message"`) {
		t.Fatalf("the echo tool was not offered with its description and schema: %+v (tools %v)\nstderr:\n%s", spec, reqs[0].Tools, r.stderr)
	}
	if got := reqs[1].Last(); got.Role != "tool" || got.Content != "Echo: hello from tick" {
		t.Fatalf("echo result reaching the model: %+v", got)
	}
	if got := reqs[2].Last().Content; !strings.Contains(got, "[image image/png") || !strings.Contains(got, "not shown") {
		t.Fatalf("image result reaching the model: %q", got)
	}
}

func TestMCPEverythingOverStdio(t *testing.T) {
	entry := mcptest.Everything(t)
	srv := providertest.New(t)
	marker := runMarker("mcp-stdio")
	checkEchoReachedModel(t, srv, everythingConfig(t, srv, entry, marker, ""))
	// No process outlives tick: the server is gone once run returns.
	if pids := liveProcessesWith(entry, marker); len(pids) > 0 {
		t.Fatalf("MCP server processes %v outlived tick", pids)
	}
}

func TestMCPEverythingOverStreamableHTTP(t *testing.T) {
	entry := mcptest.Everything(t)
	addr := startEverythingHTTP(t, entry)
	srv := providertest.New(t)
	checkEchoReachedModel(t, srv, everythingConfig(t, srv, entry, "", "http://"+addr+"/mcp"))
}

// startEverythingHTTP runs server-everything over streamable HTTP on a free
// port and returns its address. A port taken between freePort and the
// server's listen (other tests run at once) makes it try another.
func startEverythingHTTP(t *testing.T, entry string) string {
	t.Helper()
	for try := 0; try < 5; try++ {
		port := freePort(t)
		node := exec.Command("node", entry, "streamableHttp")
		node.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
		node.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		stderr, err := node.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := node.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = syscall.Kill(-node.Process.Pid, syscall.SIGKILL)
			_ = node.Wait()
		})
		listening := make(chan bool, 1)
		go func() {
			sc := bufio.NewScanner(stderr)
			ok := false
			for sc.Scan() {
				if strings.Contains(sc.Text(), "listening on port") {
					ok = true
					listening <- true
				}
			}
			if !ok {
				listening <- false // exited without listening: port taken
			}
		}()
		select {
		case ok := <-listening:
			if ok {
				return net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
			}
		case <-time.After(60 * time.Second):
			t.Fatal("server-everything did not start listening within 60s")
		}
	}
	t.Fatal("server-everything found no free port in 5 tries")
	return ""
}

// freePort returns a TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// A project's MCP servers stay off until the user trusts the project.
func TestProjectMCPServersNeedTrust(t *testing.T) {
	entry := mcptest.Everything(t)
	srv := providertest.New(t)
	env, _ := userConfig(t, "provider = \"fake\"\nmodel = \"m\"\n[providers.fake]\nbase_url = \""+srv.URL+"\"\n")
	env["XDG_STATE_HOME"] = t.TempDir()
	ws := t.TempDir()
	marker := runMarker("mcp-trust")
	proj := filepath.Join(ws, ".tick", "config.toml")
	os.MkdirAll(filepath.Dir(proj), 0o755)
	os.WriteFile(proj, []byte(fmt.Sprintf("[mcp_servers.proj]\ncommand = \"node\"\nargs = [%q, \"stdio\", %q]\n", entry, marker)), 0o644)

	srv.Enqueue(providertest.Reply{Text: "first"})
	r := tick(t, env, "", "-p", "hi", "-C", ws, "--no-session")
	if r.code != app.ExitOK || !strings.Contains(r.stderr, "they stay off until you allow them") {
		t.Fatalf("untrusted run: exit %d stderr %s", r.code, r.stderr)
	}
	if tools := strings.Join(srv.Requests()[0].Tools, ","); strings.Contains(tools, "mcp__") {
		t.Fatalf("an untrusted project's server was offered: %s", tools)
	}

	r = tick(t, env, "", "mcp", "trust", "-C", ws)
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "allowed for this project: MCP servers proj") {
		t.Fatalf("tick mcp trust: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = tick(t, env, "", "mcp", "list", "-C", ws)
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "proj (project) · ready · stdio node") || !strings.Contains(r.stdout, "mcp__proj__echo") || strings.Contains(r.stderr, "need your approval") {
		t.Fatalf("tick mcp list: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if pids := liveProcessesWith(entry, marker); len(pids) > 0 {
		t.Fatalf("tick mcp list left MCP servers %v running", pids)
	}
	// A changed definition asks again.
	os.WriteFile(proj, []byte(fmt.Sprintf("[mcp_servers.proj]\ncommand = \"node\"\nargs = [%q, \"stdio\", %q, \"x\"]\n", entry, marker)), 0o644)
	r = tick(t, env, "", "mcp", "list", "-C", ws)
	if !strings.Contains(r.stderr, "they stay off until you allow them") {
		t.Fatalf("a changed project server ran without asking: stdout %q stderr %q", r.stdout, r.stderr)
	}
}

func TestMCPListFailedServer(t *testing.T) {
	env, _ := userConfig(t, "[mcp_servers.broken]\ncommand = \"sh\"\nargs = [\"-c\", \"echo cannot find my config >&2; exit 3\"]\n")
	env["XDG_STATE_HOME"] = t.TempDir()
	r := tick(t, env, "", "mcp", "list", "-C", t.TempDir())
	if r.code != app.ExitError || !strings.Contains(r.stdout, "broken · failed") || !strings.Contains(r.stdout, "cannot find my config") {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = tick(t, env, "", "mcp", "list", "--json", "-C", t.TempDir())
	if !strings.Contains(r.stdout, `"name":"broken","state":"failed"`) {
		t.Fatalf("--json: %q", r.stdout)
	}
}

func TestHooksFromConfig(t *testing.T) {
	srv := providertest.New(t)
	marker := filepath.Join(t.TempDir(), "stopped")
	env, _ := userConfig(t, fmt.Sprintf(`provider = "fake"
model = "m"
[providers.fake]
base_url = %q
[[hooks.pre_tool_use]]
matcher = "bash"
command = "grep -q 'rm -rf' && { echo 'rm -rf is not allowed' >&2; exit 2; }; exit 0"
[[hooks.stop]]
command = "cat > %s"
`, srv.URL, marker))
	env["XDG_STATE_HOME"] = t.TempDir()
	srv.Enqueue(call("bash", map[string]any{"command": "rm -rf build"}), call("bash", map[string]any{"command": "echo fine"}), providertest.Reply{Text: "ok"})
	r := tick(t, env, "", "-p", "clean", "-C", t.TempDir(), "--yolo", "--no-session")
	if r.code != app.ExitOK {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	reqs := srv.Requests()
	if got := reqs[1].Last().Content; got != "Error: a pre_tool_use hook of the user blocked this bash call: rm -rf is not allowed" {
		t.Fatalf("blocked call's result %q", got)
	}
	if got := reqs[2].Last().Content; !strings.Contains(got, "fine") {
		t.Fatalf("allowed call's result %q", got)
	}
	b, err := os.ReadFile(marker)
	if err != nil || !strings.Contains(string(b), `"event":"stop"`) {
		t.Fatalf("stop hook input %q, %v", b, err)
	}
}

// TestSIGTERMStopsMCPServers runs the real binary with an MCP server, sends
// SIGTERM while a command runs, and checks that tick exits 143 with the
// server and the command gone.
func TestSIGTERMStopsMCPServers(t *testing.T) {
	entry := mcptest.Everything(t)
	bin := sharedTick(t)
	marker := runMarker("mcp-e2e")
	srv := providertest.New(t)
	srv.Enqueue(call("bash", map[string]any{"command": "exec -a " + marker + "-sleep sleep 30"}))
	env, _ := userConfig(t, fmt.Sprintf("[mcp_servers.everything]\ncommand = \"node\"\nargs = [%q, \"stdio\", %q]\n", entry, marker))
	cmd := exec.Command(bin, "-p", "wait a while", "--yolo", "--no-session", "-C", t.TempDir())
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL, "XDG_CONFIG_HOME=" + env["XDG_CONFIG_HOME"]}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		for _, pid := range liveProcessesWith(marker) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	running := func() bool {
		return len(liveProcessesWith(marker+"-sleep")) > 0 && len(liveProcessesWith(entry, marker)) > 0
	}
	if !waitFor(60*time.Second, running) {
		t.Fatalf("the MCP server and the command never ran together; stderr:\n%s", errb.String())
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != app.ExitTerminated {
			t.Errorf("tick ended with %v, want exit status 143; stderr:\n%s", err, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("tick did not exit after SIGTERM; stderr:\n%s", errb.String())
	}
	if pids := liveProcessesWith(marker); len(pids) > 0 {
		t.Fatalf("processes %v outlived tick", pids)
	}
}

// A project's allow rules apply only once the user trusted the project,
// under the same record as its servers and hooks.
func TestProjectAllowRulesNeedTrust(t *testing.T) {
	srv := providertest.New(t)
	env, _ := userConfig(t, "provider = \"fake\"\nmodel = \"m\"\n[providers.fake]\nbase_url = \""+srv.URL+"\"\n")
	env["XDG_STATE_HOME"] = t.TempDir()
	ws := t.TempDir()
	proj := filepath.Join(ws, ".tick", "config.toml")
	if err := os.MkdirAll(filepath.Dir(proj), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(proj, []byte("allow = [\"bash(echo project-rule *)\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Outside the sandbox every command needs approval, which -p cannot
	// give: only an allow rule lets it run.
	runEcho := func() (string, result) {
		t.Helper()
		before := len(srv.Requests())
		srv.Enqueue(call("bash", map[string]any{"command": "echo project-rule ran"}), providertest.Reply{Text: "ok"})
		r := tick(t, env, "", "-p", "echo", "-C", ws, "--no-session", "--sandbox", "danger-full-access")
		if r.code != app.ExitOK && r.code != app.ExitRefused { // refused until the rule is trusted

			t.Fatalf("exit %d stderr %s", r.code, r.stderr)
		}
		reqs := srv.Requests()[before:]
		return reqs[len(reqs)-1].Last().Content, r
	}
	if got, r := runEcho(); strings.Contains(got, "project-rule ran") || !strings.Contains(r.stderr, "allow rules bash(echo project-rule *)") {
		t.Fatalf("untrusted project: result %q, stderr %s", got, r.stderr)
	}
	r := tick(t, env, "", "mcp", "trust", "-C", ws)
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "allowed for this project: allow rules bash(echo project-rule *)") {
		t.Fatalf("tick mcp trust: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if got, r := runEcho(); !strings.Contains(got, "project-rule ran") || strings.Contains(r.stderr, "need your approval") {
		t.Fatalf("trusted project: result %q, stderr %s", got, r.stderr)
	}
	// A changed rule asks again.
	if err := os.WriteFile(proj, []byte("allow = [\"bash(echo project-rule*)\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, r := runEcho(); strings.Contains(got, "project-rule ran") || !strings.Contains(r.stderr, "stay off until you allow them") {
		t.Fatalf("changed rule: result %q, stderr %s", got, r.stderr)
	}
}
