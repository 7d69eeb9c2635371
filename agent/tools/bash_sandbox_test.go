package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/internal/proctest"
	"github.com/tick-agent/tick/agent/sandbox"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		os.Exit(sandbox.Main(os.Args[2:])) // the test binary is the helper
	}
	os.Exit(m.Run())
}

// sandboxedBash returns a bash tool whose commands run through the
// sandbox helper (this test binary) in mode m.
func sandboxedBash(t *testing.T, m sandbox.Mode) (*Bash, *Workspace) {
	t.Helper()
	ws, _ := newTestWorkspace(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := sandbox.Policy{Mode: m, Workspace: ws.Root(), TempDir: t.TempDir()}
	r := sandbox.NewRunner(p, sandbox.Probe(exe, p))
	return NewBash(ws, Options{Sandbox: r}), ws
}

// TestBashEndsLeftovers checks the process table after calls that leave
// processes behind in every usual way: each is gone when the call ends,
// and the call does not wait for them.
func TestBashEndsLeftovers(t *testing.T) {
	for _, m := range []sandbox.Mode{sandbox.WorkspaceWrite, sandbox.FullAccess} {
		t.Run(string(m), func(t *testing.T) {
			bash, ws := sandboxedBash(t, m)
			marker := "tick-test-left-" + filepath.Base(filepath.Dir(filepath.Dir(ws.Root()))) // unique: t.TempDir's random parent
			sleeper := `bash -c 'exec -a ` + marker + ` sleep 300'`
			tests := []struct{ name, command string }{
				{"background", sleeper + ` & echo started`},
				{"nohup and setsid", `nohup ` + sleeper + ` >/dev/null 2>&1 & setsid ` + sleeper + ` & echo started`},
				{"double fork", `( ( ` + sleeper + ` & ) & ) ; echo started`},
				{"timeout", `{"command":"` + sleeper + ` & setsid ` + sleeper + ` & echo started; wait","timeout":0.5}`},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					args := tt.command
					if !strings.HasPrefix(args, "{") {
						args = `{"command":"` + strings.ReplaceAll(args, `"`, `\"`) + `"}`
					}
					got, err := run(t, bash, args)
					if err != nil {
						t.Fatalf("Run: %v", err)
					}
					if !strings.Contains(got, "started") || strings.Contains(got, "still holds the output") {
						t.Errorf("result %q: want the output, and no process holding it", got)
					}
					if pids := proctest.Named(t, marker); len(pids) > 0 {
						t.Errorf("processes left behind after the call: %v", pids)
					}
				})
			}
		})
	}
}
