package tools

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestWriteFile(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	root := ws.Root()
	mustWrite(t, filepath.Join(root, "script.sh"), "#!/bin/sh\necho old\n")
	if err := os.Chmod(filepath.Join(root, "script.sh"), 0o751); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(root, "same.txt"), "same\n")
	mustWrite(t, filepath.Join(root, "sub", "target.txt"), "old target\n")
	mustSymlink(t, "sub/target.txt", filepath.Join(root, "link.txt"))

	tests := []struct {
		name, path, content string
		want                string // the result
		file                string // the file that must hold content, relative to root
		mode                os.FileMode
	}{
		{name: "create with parent dirs", path: "a/b/c.txt", content: "one\ntwo\n",
			want: "Created a/b/c.txt (8 bytes, 2 lines).", file: "a/b/c.txt", mode: 0o644},
		{name: "create empty", path: "empty.txt", content: "",
			want: "Created empty.txt (0 bytes, 0 lines).", file: "empty.txt", mode: 0o644},
		{name: "overwrite keeps mode", path: "script.sh", content: "#!/bin/sh\necho new",
			want: "Overwrote script.sh (18 bytes, 2 lines).", file: "script.sh", mode: 0o751},
		{name: "same content", path: "same.txt", content: "same\n",
			want: "Wrote same.txt (5 bytes, 1 line); the content was already the same.", file: "same.txt", mode: 0o644},
		{name: "through a symlink inside", path: "link.txt", content: "new target\n",
			want: "Overwrote sub/target.txt (11 bytes, 1 line).", file: "sub/target.txt", mode: 0o644},
	}
	tool := NewWriteFile(ws)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"path": tt.path, "content": tt.content})
			got, err := run(t, tool, string(args))
			if err != nil {
				t.Fatalf("Run(%s): %v", args, err)
			}
			if got != tt.want {
				t.Errorf("Run = %q, want %q", got, tt.want)
			}
			full := filepath.Join(root, tt.file)
			if content := mustRead(t, full); content != tt.content {
				t.Errorf("file holds %q, want %q", content, tt.content)
			}
			fi, err := os.Stat(full)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != tt.mode {
				t.Errorf("mode = %v, want %v", fi.Mode().Perm(), tt.mode)
			}
			assertNoTempFiles(t, filepath.Dir(full))
		})
	}
	t.Run("symlink is kept", func(t *testing.T) {
		fi, err := os.Lstat(filepath.Join(root, "link.txt"))
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("link.txt is no longer a symlink: %v, %v", fi, err)
		}
	})
}

// assertNoTempFiles fails if a write left a temporary file in dir.
func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tick-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// inode returns the inode number of path.
func inode(t *testing.T, path string) uint64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

func TestWriteFileIsAtomic(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	path := filepath.Join(ws.Root(), "f.txt")
	mustWrite(t, path, "old\n")
	// An open handle keeps seeing the old file: the new content arrives by
	// rename, not by rewriting the file in place.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before := inode(t, path)
	if _, err := run(t, NewWriteFile(ws), `{"path":"f.txt","content":"new\n"}`); err != nil {
		t.Fatal(err)
	}
	if inode(t, path) == before {
		t.Error("the file was rewritten in place, not replaced by rename")
	}
	buf := make([]byte, 16)
	n, _ := f.Read(buf)
	if string(buf[:n]) != "old\n" {
		t.Errorf("the old handle reads %q, want the old content", buf[:n])
	}
	if got := mustRead(t, path); got != "new\n" {
		t.Errorf("file holds %q", got)
	}
}

func TestWriteFileErrors(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	root := ws.Root()
	mustWrite(t, filepath.Join(root, "dir", "x"), "x")
	mustWrite(t, filepath.Join(root, "file"), "x")
	// A second temporary directory, outside the workspace: a write that
	// breaks confinement lands there and is removed with it.
	outside := filepath.Join(t.TempDir(), "should-not-exist.txt")
	outsideArgs, _ := json.Marshal(map[string]string{"path": outside, "content": "x"})
	tests := []struct{ name, args, want string }{
		{"malformed JSON", `{"path":"a.txt","content":"x`, `invalid arguments for write_file: malformed JSON`},
		{"missing content", `{"path":"a.txt"}`, `"content" is required (got "path"); expected {"path": "...", "content": "..."}`},
		{"content not a string", `{"path":"a.json","content":{"a":1}}`, `"content" must be a string, not an object`},
		{"missing path", `{"content":"x"}`, `"path" is required`},
		{"outside", `{"path":"../x.txt","content":"x"}`, `path "../x.txt" is outside the workspace ` + root},
		{"absolute outside", string(outsideArgs), `is outside the workspace`},
		{"a directory", `{"path":"dir","content":"x"}`, `write file "dir": it is a directory`},
		{"below a file", `{"path":"file/x.txt","content":"x"}`, `write file "file/x.txt"`},
	}
	tool := NewWriteFile(ws)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := run(t, tool, tt.args)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run(%s) = %q, %v; want an error containing %q", tt.args, got, err, tt.want)
			}
			if _, _, perr := tool.Preview(json.RawMessage(tt.args)); perr == nil {
				t.Errorf("Preview(%s) accepted the call", tt.args)
			}
		})
	}
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Error("a file was written outside the workspace")
	}
}

func TestWriteFilePreview(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	mustWrite(t, filepath.Join(ws.Root(), "old.txt"), "a\nb\nc\n")
	mustWrite(t, filepath.Join(ws.Root(), "bin"), "\x00\x01")
	tests := []struct{ name, path, content, detail string }{
		{"new file", "new/n.txt", "x\ny\n", "--- /dev/null\n+++ b/new/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"new empty file", "e.txt", "", "(new empty file)"},
		{"change", "old.txt", "a\nB\nc\n", "--- a/old.txt\n+++ b/old.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"unchanged", "old.txt", "a\nb\nc\n", "(no changes: the file already has this content)"},
		{"binary", "bin", "text\n", "(replaces a binary or very large file with 5 bytes of text)"},
	}
	var tool Tool = NewWriteFile(ws)
	ap, ok := tool.(Approvable)
	if !ok {
		t.Fatal("write_file does not implement Approvable")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"path": tt.path, "content": tt.content})
			summary, detail, err := ap.Preview(args)
			if err != nil {
				t.Fatal(err)
			}
			if summary != tt.path || detail != tt.detail {
				t.Errorf("Preview = %q,\n%q\nwant %q,\n%q", summary, detail, tt.path, tt.detail)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "new")); !errors.Is(err, os.ErrNotExist) {
		t.Error("Preview created a directory")
	}
}
