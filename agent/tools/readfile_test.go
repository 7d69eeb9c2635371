package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tick-agent/tick/provider"
)

// numbered returns lines "line<i>" for i in 1..n, each ending in "\n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line%d\n", i)
	}
	return b.String()
}

func TestReadFile(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	root := ws.Root()
	mustWrite(t, filepath.Join(root, "main.go"), "package main\n\nfunc main() {}\n")
	mustWrite(t, filepath.Join(root, "ten.txt"), numbered(10))
	mustWrite(t, filepath.Join(root, "big.txt"), numbered(2500))
	mustWrite(t, filepath.Join(root, "nolf.txt"), "a\nb")
	mustWrite(t, filepath.Join(root, "crlf.txt"), "a\r\nb\r\n")
	mustWrite(t, filepath.Join(root, "empty.txt"), "")
	mustWrite(t, filepath.Join(root, "long.txt"), "short\n"+strings.Repeat("é", 3000)+"\nend\n")
	mustWrite(t, filepath.Join(root, "wide.txt"), strings.Repeat(strings.Repeat("w", 999)+"\n", 1000))
	mustWrite(t, filepath.Join(root, "latin1.txt"), "caf\xe9 cr\xe8me\n")

	tests := []struct {
		name     string
		args     string
		want     string   // the whole result, when set
		contains []string // or parts of it
		absent   []string
	}{
		{name: "cat -n style", args: `{"path":"main.go"}`,
			want: "     1\tpackage main\n     2\t\n     3\tfunc main() {}"},
		{name: "offset and limit", args: `{"path":"ten.txt","offset":3,"limit":2}`,
			want: "     3\tline3\n     4\tline4\n... 6 more lines; use offset=5 to read on"},
		{name: "one more line", args: `{"path":"ten.txt","offset":8,"limit":2}`,
			want: "     8\tline8\n     9\tline9\n... 1 more line; use offset=10 to read on"},
		{name: "offset to the end", args: `{"path":"ten.txt","offset":9}`, want: "     9\tline9\n    10\tline10"},
		{name: "numbers as strings", args: `{"path":"ten.txt","offset":"10","limit":"5"}`, want: "    10\tline10"},
		{name: "default limit 2000", args: `{"path":"big.txt"}`,
			contains: []string{"     1\tline1\n", "  2000\tline2000\n... 500 more lines; use offset=2001 to read on"},
			absent:   []string{"line2001"}},
		{name: "last line without newline", args: `{"path":"nolf.txt"}`, want: "     1\ta\n     2\tb"},
		{name: "CRLF", args: `{"path":"crlf.txt"}`, want: "     1\ta\n     2\tb"},
		{name: "empty file", args: `{"path":"empty.txt"}`, want: "(empty file)"},
		{name: "long line cut", args: `{"path":"long.txt"}`,
			contains: []string{"     1\tshort\n", "     2\t" + strings.Repeat("é", 1000) + " … [line truncated: 6000 bytes]\n", "     3\tend"}},
		{name: "total size capped", args: `{"path":"wide.txt"}`,
			contains: []string{"     1\twww", "more lines; use offset="}, absent: []string{"  1000\t"}},
		{name: "invalid UTF-8 text", args: `{"path":"latin1.txt"}`, want: "     1\tcaf\uFFFD cr\uFFFDme"},
		{name: "absolute path inside", args: fmt.Sprintf(`{"path":%q}`, filepath.Join(root, "nolf.txt")), want: "     1\ta\n     2\tb"},
	}
	tool := NewReadFile(ws)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := run(t, tool, tt.args)
			if err != nil {
				t.Fatalf("Run(%s): %v", tt.args, err)
			}
			if tt.want != "" && got != tt.want {
				t.Errorf("Run(%s) =\n%q\nwant\n%q", tt.args, got, tt.want)
			}
			for _, s := range tt.contains {
				if !strings.Contains(got, s) {
					t.Errorf("result does not contain %q", s)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(got, s) {
					t.Errorf("result contains %q", s)
				}
			}
			if len(got) > readMaxBytes+200 {
				t.Errorf("result is %d bytes, over the cap", len(got))
			}
		})
	}
}

func TestReadFileErrors(t *testing.T) {
	ws, out := newTestWorkspace(t)
	root := ws.Root()
	mustWrite(t, filepath.Join(root, "ten.txt"), numbered(10))
	mustWrite(t, filepath.Join(root, "image.png"), "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"+strings.Repeat("\x00", 1024))
	mustWrite(t, filepath.Join(root, "prog"), "\x7fELF\x02\x01\x01"+strings.Repeat("\x00", 1017))
	mustWrite(t, filepath.Join(root, "noise.bin"), strings.Repeat("\xff\xfe\x01\x02abc", 200))
	mustWrite(t, filepath.Join(root, "dir", "x.txt"), "x")
	mustSymlink(t, filepath.Join(out, "secret"), filepath.Join(root, "link"))
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		args     string
		contains []string
		is       error
	}{
		{name: "missing file", args: `{"path":"nope.go"}`,
			contains: []string{`read file "nope.go"`, "no such file", root, "ls"}, is: fs.ErrNotExist},
		{name: "directory", args: `{"path":"dir"}`, contains: []string{"is a directory", "ls dir"}},
		{name: "binary with NUL", args: `{"path":"prog"}`, contains: []string{`"prog"`, "binary file (1.0 KiB)"}},
		{name: "broken image", args: `{"path":"image.png"}`, contains: []string{`read image "image.png"`, "png: invalid format"}},
		{name: "binary without NUL", args: `{"path":"noise.bin"}`, contains: []string{"binary file (1.4 KiB)"}},
		{name: "fifo", args: `{"path":"fifo"}`, contains: []string{"not a regular file"}},
		{name: "outside", args: `{"path":"../outside/secret"}`, contains: []string{"outside the workspace " + root}},
		{name: "symlink out", args: `{"path":"link"}`, contains: []string{"outside the workspace", "symlink"}},
		{name: "offset past the end", args: `{"path":"ten.txt","offset":11}`,
			contains: []string{"offset 11 is past the end of the file (10 lines)"}},
		{name: "malformed JSON", args: `{"path":`, contains: []string{"invalid arguments for read_file: malformed JSON", `expected {"path": "..."`}},
		{name: "missing path", args: `{"file":"x"}`, contains: []string{`"path" is required (got "file")`}},
		{name: "empty path", args: `{"path":""}`, contains: []string{`"path" is empty`}},
		{name: "negative offset", args: `{"path":"ten.txt","offset":-5}`, contains: []string{`"offset" must be a line number from 1`}},
		{name: "fractional limit", args: `{"path":"ten.txt","limit":2.5}`, contains: []string{`"limit" must be a whole number`}},
		{name: "limit not a number", args: `{"path":"ten.txt","limit":true}`, contains: []string{`"limit" must be a number, not a boolean`}},
	}
	tool := NewReadFile(ws)
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
		})
	}
}

func BenchmarkReadFile(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	mustWriteB(b, filepath.Join(ws.Root(), "big.txt"), numbered(100000))
	tool := NewReadFile(ws)
	args := []byte(`{"path":"big.txt","offset":50000}`)
	for b.Loop() {
		if _, err := tool.Run(b.Context(), args); err != nil {
			b.Fatal(err)
		}
	}
}

func mustWriteB(b *testing.B, path, content string) {
	b.Helper()
	if err := writeAtomic(path, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
}

// TestReadFileImage: read_file hands an image to the context's attach
// func and says so; without one it refuses with an error the model can
// act on.
func TestReadFileImage(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	root := ws.Root()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 4, 3))); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"shot.png": b.Bytes(), "noext": b.Bytes(), "fake.png": []byte("not an image")} {
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rf := NewReadFile(ws)
	for _, path := range []string{"shot.png", "noext"} {
		var got []provider.Image
		ctx := WithImages(context.Background(), func(img provider.Image) { got = append(got, img) })
		out, err := rf.Run(ctx, json.RawMessage(`{"path":"`+path+`"}`))
		if err != nil || !strings.Contains(out, "Attached the image "+path+" (PNG, 4×3") {
			t.Errorf("%s: %q, %v", path, out, err)
		}
		if len(got) != 1 || got[0].MediaType != "image/png" || !bytes.Equal(got[0].Data, b.Bytes()) {
			t.Errorf("%s: attached %d images", path, len(got))
		}
	}
	if _, err := rf.Run(context.Background(), json.RawMessage(`{"path":"shot.png"}`)); err == nil || !strings.Contains(err.Error(), "cannot be attached here") {
		t.Errorf("without attach: %v", err)
	}
	if out, err := rf.Run(WithImages(context.Background(), func(provider.Image) { t.Error("attached a text file") }), json.RawMessage(`{"path":"fake.png"}`)); err != nil || !strings.Contains(out, "not an image") {
		t.Errorf("a text file named .png: %q, %v", out, err)
	}
}
