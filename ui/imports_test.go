package ui

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLayering keeps the dependency direction ui -> agent: no package under
// ui/ imports the model client or the tools; what it shows of them arrives
// as agent events. ui/app is the exception: it is the composition root
// that wires the client and the tools into the agent.
func TestLayering(t *testing.T) {
	forbidden := []string{"github.com/tick-agent/tick/provider", "github.com/tick-agent/tick/agent/tools"}
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		if dir := filepath.Dir(path); dir == "app" || dir == filepath.Join("app", "apptest") {
			return nil // the composition root, and its tests' helpers
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range forbidden {
				if p == bad || strings.HasPrefix(p, bad+"/") {
					t.Errorf("%s imports %s", path, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("checked only %d files", checked)
	}
}
