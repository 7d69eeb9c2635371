package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newTestWorkspace makes a workspace in a temporary directory, with a
// sibling directory "outside" holding a file "secret". It returns the
// workspace and the outside directory.
func newTestWorkspace(t *testing.T) (*Workspace, string) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	out := filepath.Join(base, "outside")
	for _, d := range []string{root, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, filepath.Join(out, "secret"), "secret\n")
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatalf("NewWorkspace(%q): %v", root, err)
	}
	return ws, out
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// run calls tool with args given as a JSON string.
func run(t *testing.T, tool Tool, args string) (string, error) {
	t.Helper()
	return tool.Run(context.Background(), json.RawMessage(args))
}

func TestResolve(t *testing.T) {
	ws, out := newTestWorkspace(t)
	root := ws.Root()
	mustWrite(t, filepath.Join(root, "sub", "a.txt"), "a\n")
	mustWrite(t, filepath.Join(root, "file.txt"), "f\n")
	mustSymlink(t, out, filepath.Join(root, "linkdir"))                                    // dir out
	mustSymlink(t, filepath.Join(out, "secret"), filepath.Join(root, "linkfile"))          // file out
	mustSymlink(t, "sub", filepath.Join(root, "inlink"))                                   // dir in (relative)
	mustSymlink(t, filepath.Join(root, "sub", "a.txt"), filepath.Join(root, "inlinkfile")) // file in
	mustSymlink(t, "../../outside/secret", filepath.Join(root, "sub", "relout"))           // relative, out
	mustSymlink(t, filepath.Join(out, "nothing"), filepath.Join(root, "dangling_out"))     // dangling, out
	mustSymlink(t, "sub/new.txt", filepath.Join(root, "dangling_in"))                      // dangling, in
	mustSymlink(t, "loop2", filepath.Join(root, "loop1"))
	mustSymlink(t, "loop1", filepath.Join(root, "loop2"))

	tests := []struct {
		name    string
		path    string
		want    string // expected result relative to root, when ok
		outside bool   // expect an *OutsideError
		symlink bool   // ... that blames a symlink
		errText string // expect another error containing this
	}{
		{name: "relative", path: "sub/a.txt", want: "sub/a.txt"},
		{name: "dot", path: ".", want: "."},
		{name: "new file", path: "sub/new/deep.txt", want: "sub/new/deep.txt"},
		{name: "absolute inside", path: filepath.Join(root, "sub", "a.txt"), want: "sub/a.txt"},
		{name: "dotdot staying inside", path: "sub/../file.txt", want: "file.txt"},
		{name: "symlinked dir inside", path: "inlink/a.txt", want: "sub/a.txt"},
		{name: "symlinked file inside", path: "inlinkfile", want: "sub/a.txt"},
		{name: "dangling symlink inside", path: "dangling_in", want: "sub/new.txt"},
		{name: "below a regular file", path: "file.txt/x", want: "file.txt/x"},
		{name: "dotdot escape", path: "../x", outside: true},
		{name: "dotdot deep escape", path: "sub/../../outside/secret", outside: true},
		{name: "absolute outside", path: "/etc/passwd", outside: true},
		{name: "absolute sibling", path: filepath.Join(out, "secret"), outside: true},
		{name: "symlinked dir out", path: "linkdir/secret", outside: true, symlink: true},
		{name: "symlink dir itself out", path: "linkdir", outside: true, symlink: true},
		{name: "symlinked file out", path: "linkfile", outside: true, symlink: true},
		{name: "relative symlink out", path: "sub/relout", outside: true, symlink: true},
		{name: "new file under symlinked dir out", path: "linkdir/new/file.txt", outside: true, symlink: true},
		{name: "dangling symlink out", path: "dangling_out", outside: true, symlink: true},
		{name: "empty", path: "", errText: "empty"},
		{name: "NUL byte", path: "a\x00b", errText: "NUL"},
		{name: "symlink loop", path: "loop1", errText: "too many levels of symbolic links"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ws.Resolve(tt.path)
			var oe *OutsideError
			switch {
			case tt.outside:
				if !errors.As(err, &oe) {
					t.Fatalf("Resolve(%q) = %q, %v; want an *OutsideError", tt.path, got, err)
				}
				if !strings.Contains(err.Error(), "outside the workspace "+root) {
					t.Errorf("error %q does not name the workspace %s", err, root)
				}
				if oe.Symlink != tt.symlink {
					t.Errorf("Symlink = %v, want %v (error %q)", oe.Symlink, tt.symlink, err)
				}
			case tt.errText != "":
				if err == nil || !strings.Contains(err.Error(), tt.errText) {
					t.Fatalf("Resolve(%q) = %q, %v; want an error containing %q", tt.path, got, err, tt.errText)
				}
			default:
				if err != nil {
					t.Fatalf("Resolve(%q): %v", tt.path, err)
				}
				if want := filepath.Join(root, tt.want); got != want {
					t.Errorf("Resolve(%q) = %q, want %q", tt.path, got, want)
				}
			}
		})
	}
}

func TestResolveErrorMessage(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	_, err := ws.Resolve("../x")
	want := `path "../x" is outside the workspace ` + ws.Root()
	if err == nil || err.Error() != want {
		t.Errorf("Resolve(../x) error = %v, want %q", err, want)
	}
}

func TestNewWorkspace(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, real, filepath.Join(base, "alias"))
	mustWrite(t, filepath.Join(base, "file"), "x")
	realRoot, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("symlinked root is evaluated", func(t *testing.T) {
		ws, err := NewWorkspace(filepath.Join(base, "alias"))
		if err != nil {
			t.Fatal(err)
		}
		if ws.Root() != realRoot {
			t.Errorf("Root() = %q, want %q", ws.Root(), realRoot)
		}
		// An absolute path through the alias is still inside.
		got, err := ws.Resolve(filepath.Join(base, "alias", "x.txt"))
		if err != nil || got != filepath.Join(realRoot, "x.txt") {
			t.Errorf("Resolve via alias = %q, %v", got, err)
		}
	})
	t.Run("relative root is made absolute", func(t *testing.T) {
		t.Chdir(base)
		ws, err := NewWorkspace("real")
		if err != nil {
			t.Fatal(err)
		}
		if ws.Root() != realRoot {
			t.Errorf("Root() = %q, want %q", ws.Root(), realRoot)
		}
	})
	for _, tt := range []struct{ name, root, want string }{
		{"missing", filepath.Join(base, "nope"), "no such file"},
		{"file", filepath.Join(base, "file"), "not a directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewWorkspace(tt.root)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.root) {
				t.Errorf("NewWorkspace(%q) error = %v, want one naming the path and containing %q", tt.root, err, tt.want)
			}
		})
	}
}

func TestRel(t *testing.T) {
	ws, out := newTestWorkspace(t)
	for _, tt := range []struct{ in, want string }{
		{ws.Root(), "."},
		{filepath.Join(ws.Root(), "a", "b.go"), "a/b.go"},
		{out, out},
		{ws.Root() + "x", ws.Root() + "x"}, // a sibling sharing the prefix
	} {
		t.Run(tt.in, func(t *testing.T) {
			if got := ws.Rel(tt.in); got != tt.want {
				t.Errorf("Rel(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
