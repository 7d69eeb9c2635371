//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test if it has not returned after a
// generous deadline: an open that blocks must not hang the suite.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not return: it blocked", what)
	}
}

func TestRead(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "repo")
	must(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "ok.md"), []byte("hello"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "big.md"), make([]byte, 2048), 0o644))
	must(t, os.WriteFile(filepath.Join(top, "secret"), []byte("SECRET"), 0o600))
	must(t, syscall.Mkfifo(filepath.Join(root, "fifo.md"), 0o644))
	for name, target := range map[string]string{
		"zero.md":    "/dev/zero",
		"environ.md": "/proc/self/environ",
		"out.md":     "../secret",
		"in.md":      "sub/../ok.md",
		"fifolink":   "fifo.md",
	} {
		must(t, os.Symlink(target, filepath.Join(root, name)))
	}
	tests := []struct {
		name, root string
		want       error // nil: reads "hello"
	}{
		{"ok.md", root, nil},
		{"in.md", root, nil},
		{"fifo.md", root, ErrNotRegular},
		{"fifolink", root, ErrNotRegular},
		{"fifo.md", "", ErrNotRegular},
		{"zero.md", root, ErrOutside},
		{"zero.md", "", ErrNotRegular},
		{"environ.md", root, ErrOutside},
		{"out.md", root, ErrOutside},
		{"big.md", root, ErrTooLarge},
		{"sub", root, ErrNotRegular},
		{"missing.md", root, fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/root="+filepath.Base(tt.root), func(t *testing.T) {
			var b []byte
			var err error
			within(t, "Read "+tt.name, func() { b, err = Read(tt.root, filepath.Join(root, tt.name), 1024) })
			if tt.want == nil {
				if err != nil || string(b) != "hello" {
					t.Fatalf("Read = %q, %v; want hello", b, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Read = %q, %v; want an error wrapping %v", b, err, tt.want)
			}
			var fe *Error
			if !errors.Is(tt.want, fs.ErrNotExist) && (!errors.As(err, &fe) || !strings.Contains(err.Error(), tt.name)) {
				t.Errorf("error %q is not an *Error naming the file", err)
			}
			if strings.Contains(string(b), "SECRET") {
				t.Errorf("the content leaked: %q", b)
			}
		})
	}
}

func TestReadPrefix(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "f")
	must(t, os.WriteFile(p, []byte("0123456789"), 0o644))
	must(t, os.Symlink("/dev/zero", filepath.Join(root, "zero")))
	for _, tt := range []struct {
		limit int64
		want  string
		cut   bool
	}{{4, "0123", true}, {10, "0123456789", false}, {100, "0123456789", false}, {0, "", true}, {-1, "", true}} {
		b, cut, err := ReadPrefix(root, p, tt.limit)
		if err != nil || string(b) != tt.want || cut != tt.cut {
			t.Errorf("ReadPrefix(%d) = %q, %v, %v; want %q, %v", tt.limit, b, cut, err, tt.want, tt.cut)
		}
	}
	var err error
	within(t, "ReadPrefix of /dev/zero", func() { _, _, err = ReadPrefix("", filepath.Join(root, "zero"), 1<<30) })
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadPrefix of a link to /dev/zero: %v, want ErrNotRegular", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestReadDir(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "repo")
	must(t, os.MkdirAll(filepath.Join(root, "d"), 0o755))
	for _, n := range []string{"b", "a", "c"} {
		must(t, os.WriteFile(filepath.Join(root, "d", n), nil, 0o644))
	}
	must(t, syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644))
	must(t, os.Symlink(top, filepath.Join(root, "up")))
	must(t, os.Symlink("d", filepath.Join(root, "dlink")))
	tests := []struct {
		dir   string
		limit int
		want  error // nil: a, b, c
	}{
		{"d", 3, nil},
		{"dlink", 10, nil},
		{"d", 2, ErrTooLarge},
		{"pipe", 10, ErrNotDir},
		{"up", 10, ErrOutside},
		{"missing", 10, fs.ErrNotExist},
	}
	for _, tt := range tests {
		var got []fs.DirEntry
		var err error
		within(t, "ReadDir "+tt.dir, func() { got, err = ReadDir(root, filepath.Join(root, tt.dir), tt.limit) })
		if tt.want != nil {
			if !errors.Is(err, tt.want) {
				t.Errorf("ReadDir(%s, %d) = %v, want %v", tt.dir, tt.limit, err, tt.want)
			}
			continue
		}
		var names []string
		for _, e := range got {
			names = append(names, e.Name())
		}
		if err != nil || strings.Join(names, ",") != "a,b,c" {
			t.Errorf("ReadDir(%s) = %v, %v; want a,b,c", tt.dir, names, err)
		}
	}
}
