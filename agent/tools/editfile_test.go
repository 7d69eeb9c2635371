package tools

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goSource = `package main

import "fmt"

func main() {
	fmt.Println("hello")
	fmt.Println("hello")
	fmt.Println("bye")
}
`

// editArgs builds edit_file arguments.
func editArgs(path, old, new string, all bool) string {
	m := map[string]any{"path": path, "old_string": old, "new_string": new}
	if all {
		m["replace_all"] = true
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestEditFile(t *testing.T) {
	tests := []struct {
		name     string
		initial  string
		args     string
		want     string   // the file afterwards
		contains []string // in the result
	}{
		{name: "unique replacement", initial: goSource,
			args: editArgs("main.go", `fmt.Println("bye")`, `fmt.Println("goodbye")`, false),
			want: strings.Replace(goSource, `"bye"`, `"goodbye"`, 1),
			contains: []string{"Edited main.go: replaced 1 occurrence. The changed lines now read:\n",
				"     5\tfunc main() {\n", "     8\t\tfmt.Println(\"goodbye\")\n     9\t}"}},
		{name: "replace_all", initial: goSource,
			args:     editArgs("main.go", `"hello"`, `"hi"`, true),
			want:     strings.ReplaceAll(goSource, `"hello"`, `"hi"`),
			contains: []string{"replaced 2 occurrences. The first now reads:", "     6\t\tfmt.Println(\"hi\")"}},
		{name: "replace_all as a string", initial: goSource,
			args: `{"path":"main.go","old_string":"\"hello\"","new_string":"\"hi\"","replace_all":"true"}`,
			want: strings.ReplaceAll(goSource, `"hello"`, `"hi"`), contains: []string{"replaced 2 occurrences"}},
		{name: "unique thanks to context", initial: goSource,
			args:     editArgs("main.go", "\tfmt.Println(\"hello\")\n\tfmt.Println(\"bye\")", "\tfmt.Println(\"bye\")", false),
			want:     strings.Replace(goSource, "\tfmt.Println(\"hello\")\n\tfmt.Println(\"bye\")", "\tfmt.Println(\"bye\")", 1),
			contains: []string{"replaced 1 occurrence"}},
		{name: "delete", initial: "a\nb\nc\n", args: editArgs("f.txt", "b\n", "", false), want: "a\nc\n",
			contains: []string{"     1\ta\n     2\tc"}},
		{name: "CRLF file, LF old_string", initial: "one\r\ntwo\r\nthree\r\n",
			args: editArgs("f.txt", "one\ntwo\n", "1\n2\n", false), want: "1\r\n2\r\nthree\r\n",
			contains: []string{"     1\t1\n     2\t2\n     3\tthree"}},
		{name: "empties the file", initial: "only\n", args: editArgs("f.txt", "only\n", "", false), want: "",
			contains: []string{"(the file is now empty)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, _ := newTestWorkspace(t)
			var path map[string]any
			_ = json.Unmarshal([]byte(tt.args), &path)
			full := filepath.Join(ws.Root(), path["path"].(string))
			mustWrite(t, full, tt.initial)
			if err := os.Chmod(full, 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := run(t, NewEditFile(ws), tt.args)
			if err != nil {
				t.Fatalf("Run(%s): %v", tt.args, err)
			}
			for _, s := range tt.contains {
				if !strings.Contains(got, s) {
					t.Errorf("result %q does not contain %q", got, s)
				}
			}
			if content := mustRead(t, full); content != tt.want {
				t.Errorf("file holds %q, want %q", content, tt.want)
			}
			if fi, err := os.Stat(full); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("mode not kept: %v, %v", fi.Mode(), err)
			}
			assertNoTempFiles(t, filepath.Dir(full))
		})
	}
}

func TestEditFileErrors(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	root := ws.Root()
	mustWrite(t, filepath.Join(root, "main.go"), goSource)
	mustWrite(t, filepath.Join(root, "dup.txt"), "x\ny\nx\ny\nx\n")
	mustWrite(t, filepath.Join(root, "bin"), "ab\x00cd")
	tests := []struct {
		name     string
		args     string
		contains []string
		is       error
	}{
		{name: "not found", args: editArgs("main.go", "func Main()", "func M()", false),
			contains: []string{`edit file "main.go": old_string was not found in the file`, "read the file first"}},
		{name: "found after trimming", args: editArgs("main.go", "\n\n  import \"fmt\"  \n", "import \"os\"", false),
			contains: []string{"not found", "leading and trailing whitespace"}},
		{name: "found ignoring indentation", args: editArgs("main.go", "func main() {\n    fmt.Println(\"hello\")", "}", false),
			contains: []string{"lines 5-6 match when indentation and spacing are ignored"}},
		{name: "line-number prefixes", args: editArgs("main.go", "     5\tfunc main() {\n     6\t\tfmt.Println(\"hello\")", "x", false),
			contains: []string{"line-number prefixes"}},
		{name: "not unique", args: editArgs("dup.txt", "x", "z", false),
			contains: []string{"old_string occurs 3 times (at lines 1, 3, 5)", "replace_all"}},
		{name: "not unique, multi-line", args: editArgs("dup.txt", "x\ny", "z", false),
			contains: []string{"occurs 2 times (at lines 1, 3)"}},
		{name: "same strings", args: editArgs("main.go", "main", "main", false), contains: []string{`"old_string" and "new_string" are the same`}},
		{name: "empty old_string", args: editArgs("main.go", "", "x", false), contains: []string{`"old_string" is empty`, "write_file"}},
		{name: "missing file", args: editArgs("nope.go", "a", "b", false),
			contains: []string{`edit file "nope.go"`, "no such file", "write_file"}, is: fs.ErrNotExist},
		{name: "binary file", args: editArgs("bin", "ab", "x", false), contains: []string{"binary file"}},
		{name: "outside", args: editArgs("../outside/secret", "secret", "x", false), contains: []string{"outside the workspace " + root}},
		{name: "malformed JSON", args: `{"path":"main.go","old_string":`, contains: []string{"invalid arguments for edit_file: malformed JSON", `"old_string": "..."`}},
		{name: "missing new_string", args: `{"path":"main.go","old_string":"a"}`, contains: []string{`"new_string" is required`}},
		{name: "bad replace_all", args: `{"path":"main.go","old_string":"a","new_string":"b","replace_all":"yes please"}`,
			contains: []string{`"replace_all" must be true or false`}},
	}
	tool := NewEditFile(ws)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := run(t, tool, tt.args)
			if err == nil {
				t.Fatalf("Run(%s) = %q, want an error", tt.args, got)
			}
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if _, _, perr := tool.Preview(json.RawMessage(tt.args)); perr == nil {
				t.Errorf("Preview(%s) accepted the call", tt.args)
			}
		})
	}
	if got := mustRead(t, filepath.Join(root, "main.go")); got != goSource {
		t.Errorf("a failed edit changed the file: %q", got)
	}
}

func TestEditFilePreview(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	full := filepath.Join(ws.Root(), "main.go")
	mustWrite(t, full, goSource)
	var tool Tool = NewEditFile(ws)
	ap, ok := tool.(Approvable)
	if !ok {
		t.Fatal("edit_file does not implement Approvable")
	}
	summary, detail, err := ap.Preview(json.RawMessage(editArgs("main.go", `"bye"`, `"goodbye"`, false)))
	if err != nil {
		t.Fatal(err)
	}
	want := "--- a/main.go\n+++ b/main.go\n@@ -5,5 +5,5 @@\n" +
		" func main() {\n \tfmt.Println(\"hello\")\n \tfmt.Println(\"hello\")\n" +
		"-\tfmt.Println(\"bye\")\n+\tfmt.Println(\"goodbye\")\n }\n"
	if summary != "main.go" || detail != want {
		t.Errorf("Preview = %q,\n%s\nwant %q,\n%s", summary, detail, "main.go", want)
	}
	if got := mustRead(t, full); got != goSource {
		t.Error("Preview changed the file")
	}
}
