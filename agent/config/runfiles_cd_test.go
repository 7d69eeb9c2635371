package config

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tick-agent/tick/agent/sandbox"
)

// TestRunFilesThroughCd: a hook that changes directory first
// (`cd scripts && ./fmt.sh`) or runs its script through `sh -c '...'`
// runs a workspace file all the same; trust must cover it (and the
// sandbox then protects it). Today scripts/fmt.sh is not covered: a
// sandboxed command may rewrite it and the trusted hook runs it outside
// the sandbox with no question.
func TestRunFilesThroughCd(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "scripts/fmt.sh"), "echo fmt\n", 0o755)
	writeFile(t, filepath.Join(ws, "tools/lint.py"), "print(1)\n", 0o644)
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"cd scripts && ./fmt.sh", []string{"scripts/fmt.sh"}},
		{"cd scripts; sh fmt.sh --fast", []string{"scripts/fmt.sh"}},
		{`sh -c 'cd scripts && ./fmt.sh'`, []string{"scripts/fmt.sh"}},
		{`bash -c "python3 tools/lint.py"`, []string{"tools/lint.py"}},
		{"sh scripts/fmt.sh", []string{"scripts/fmt.sh"}},
	} {
		if got := namedFiles(ws, "", sandbox.ShellWords(tt.line)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("namedFiles(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}
