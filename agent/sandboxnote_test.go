package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestSandboxNoteSaysWhatTheModeAllows: the note a blocked command gets
// says what its mode allows; in read-only mode it does not claim the
// command may write inside the workspace.
func TestSandboxNoteSaysWhatTheModeAllows(t *testing.T) {
	for _, tt := range []struct {
		mode      sandbox.Mode
		want, not string
	}{
		{sandbox.ReadOnly, "it is read-only: it may read the workspace but write nowhere", "may write only inside the workspace"},
		{sandbox.WorkspaceWrite, "it may write only inside the workspace", "it is read-only"},
	} {
		t.Run(string(tt.mode), func(t *testing.T) {
			h := newHarness(t, func(cfg *agent.Config) {
				exe, err := os.Executable()
				if err != nil {
					t.Fatal(err)
				}
				p := sandbox.Policy{Mode: tt.mode, Workspace: cfg.Workspace, TempDir: t.TempDir()}
				cfg.ToolOptions.Sandbox = sandbox.NewRunner(p, sandbox.Probe(exe, p))
				if !cfg.ToolOptions.Sandbox.Confined("") {
					t.Fatalf("the sandbox does not work here:\n%s", cfg.ToolOptions.Sandbox.Support().Report(p))
				}
			})
			target := filepath.Join(h.dir, "made")
			if tt.mode == sandbox.WorkspaceWrite {
				target = filepath.Join(h.dir, ".git", "made") // .git is read-only there
				if err := os.Mkdir(filepath.Join(h.dir, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			h.srv.Enqueue(calls(call("bash", `{"command":"echo x > `+target+`"}`)), providertest.Reply{Text: "ok"})
			_, ends := turn(t, h, nil)
			out := ends[0].Output
			if !strings.Contains(out, "the sandbox refused a write") || !strings.Contains(out, target+" ("+string(tt.mode)) || !strings.Contains(out, tt.want) || strings.Contains(out, tt.not) {
				t.Errorf("result %q: want the note %q, not %q", out, tt.want, tt.not)
			}
			if _, err := os.Stat(target); err == nil {
				t.Errorf("the command wrote %s", target)
			}
		})
	}
}

// TestSandboxNotBlamedOnWords: a failing test whose output says
// "permission denied" (and a script of the workspace without its
// execute bit: "Permission denied" even for root) is a failing test, not a command the sandbox blocked:
// ToolEnd is not Blocked and the model is not told to lift the sandbox.
func TestSandboxNotBlamedOnWords(t *testing.T) {
	h := newHarness(t, withSandbox(t))
	if err := os.WriteFile(filepath.Join(h.dir, "check.sh"), []byte("exit 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(
		calls(call("bash", `{"command":"echo '--- FAIL: TestOpen: want \"permission denied\", got nil'; exit 1"}`),
			call("bash", `{"command":"./check.sh"}`)),
		providertest.Reply{Text: "tests fail"})
	_, ends := turn(t, h, nil)
	if len(ends) != 2 {
		t.Fatalf("got %d tool ends, want 2", len(ends))
	}
	for _, e := range ends {
		if e.Blocked || strings.Contains(e.Output, "danger-full-access") || strings.Contains(e.Output, "blocked by the sandbox") {
			t.Errorf("%q was blamed on the sandbox: blocked %v, output %q", e.Output, e.Blocked, e.Output)
		}
		if !e.IsError {
			t.Errorf("%q: not an error", e.Output)
		}
	}
}
