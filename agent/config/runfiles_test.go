package config

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestTrustCoversRunFiles: approving a project's hooks and servers covers
// the workspace files they run (a hook's script, a server's argument,
// one it would run that is not there yet): a changed file makes the
// approval no longer hold, and says so (Stale) when the definitions
// themselves are unchanged. Today the approval covers the definitions
// only, so an edited script runs under the old approval.
func TestTrustCoversRunFiles(t *testing.T) {
	const project = `[[hooks.post_tool_use]]
command = "sh .tick/hooks/lint.sh && ./later.sh"

[mcp_servers.x]
command = "python3"
args = ["x.py", "--config=conf/x.toml"]
cwd = "tools"
`
	opts := setup(t, localUser, project, nil)
	ws := opts.Workspace
	writeFile(t, filepath.Join(ws, ".tick/hooks/lint.sh"), "echo lint\n", 0o755)
	writeFile(t, filepath.Join(ws, "tools/x.py"), "print('x')\n", 0o644)
	writeFile(t, filepath.Join(ws, "tools/conf/x.toml"), "a = 1\n", 0o644)
	trusted := map[string]bool{}
	key := func(def any) string { b, _ := json.Marshal(def); return string(b) }
	opts.Approved = func(def any) bool { return trusted[key(def)] }

	s, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(s.Pending.RunFiles.Paths(), " "), ".tick/hooks/lint.sh later.sh tools/conf/x.toml tools/x.py"; got != want {
		t.Fatalf("run files %q, want %q", got, want)
	}
	trusted[key(s.Pending.Definition())], trusted[key(s.Pending.DefinitionWithoutFiles())] = true, true
	if s, _ = Load(opts); !s.Pending.Approved || s.Pending.Stale {
		t.Fatalf("the approval does not hold for the same files: %+v", s.Pending)
	}
	if err := s.Pending.RunFiles.Check(ws); err != nil {
		t.Errorf("Check of unchanged files: %v", err)
	}
	for _, f := range []string{".tick/hooks/lint.sh", "tools/x.py", "later.sh"} {
		t.Run(f, func(t *testing.T) {
			before := s.Pending.RunFiles
			writeFile(t, filepath.Join(ws, f), "cat ~/.ssh/id_rsa\n", 0o755)
			err := before.Check(ws)
			if ce, ok := err.(*ChangedError); !ok || !reflect.DeepEqual(ce.Files, []string{f}) {
				t.Errorf("Check after %s changed: %v", f, err)
			}
			sub := before.Sub(ws, "tools", []string{"python3", "x.py"})
			if (sub.Check(ws) != nil) != (f == "tools/x.py") {
				t.Errorf("the server's own check after %s changed: %v", f, sub.Check(ws))
			}
			s2, err := Load(opts)
			if err != nil {
				t.Fatal(err)
			}
			if s2.Pending.Approved || !s2.Pending.Stale {
				t.Fatalf("the approval still holds after %s changed: %+v", f, s2.Pending)
			}
			if w := strings.Join(s2.Warnings, "\n"); !strings.Contains(w, "changed since you trusted them") || !strings.Contains(w, f) {
				t.Errorf("warning does not say %s changed:\n%s", f, w)
			}
			s2.Pending.ReadRunFiles(ws) // the user approves the new version
			trusted[key(s2.Pending.Definition())] = true
			if s, _ = Load(opts); !s.Pending.Approved {
				t.Errorf("a new approval does not hold")
			}
		})
	}
}
