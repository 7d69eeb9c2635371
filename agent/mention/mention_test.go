package mention

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

func write(t testing.TB, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wait returns the index's paths once the walk has finished.
func wait(t testing.TB, ix *Index) []string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if p, done := ix.Paths(); done {
			return p
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the walk did not finish")
	return nil
}

func TestIndexRespectsIgnores(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"main.go", "README.md", "build/out.bin", "logs/a.log", "src/app.go", "src/gen/x.pb.go",
		"src/gen/keep.go", "node_modules/lib/index.js", ".git/HEAD", "web/dist/bundle.js", "web/page.tsx",
		"docs/notes.tmp",
	} {
		write(t, root, f, "x")
	}
	write(t, root, ".gitignore", "# comment\n/build/\n*.log\n*.tmp\n")
	write(t, root, "src/.gitignore", "gen/*\n!gen/keep.go\n")
	write(t, root, "web/.gitignore", "dist\n")
	got := wait(t, NewIndex(root))
	sort.Strings(got)
	want := []string{".gitignore", "README.md", "main.go", "src/.gitignore", "src/app.go", "src/gen/keep.go", "web/.gitignore", "web/page.tsx"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("indexed %q\nwant    %q", got, want)
	}
}

func TestMatch(t *testing.T) {
	paths := []string{"internal/server/handler.go", "cmd/tick/main.go", "ui/chat.go", "docs/changelog.md", "agent/loop.go", "main.go"}
	tests := []struct {
		q    string
		want []string
	}{
		{"main", []string{"main.go", "cmd/tick/main.go"}},
		{"chat", []string{"ui/chat.go"}},
		{"chlog", []string{"docs/changelog.md"}},
		{"srvhand", []string{"internal/server/handler.go"}},
		{"zzz", []string{}},
	}
	for _, tc := range tests {
		got := Match(paths, tc.q, 10)
		if len(got) == 0 && len(tc.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Match(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

func TestExpand(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.go", "package a\n")
	write(t, root, "big.txt", strings.Repeat("y", MaxFileBytes+10))
	write(t, root, "dir/one.go", "1")
	write(t, root, "dir/sub/two.go", "2")
	outside := filepath.Join(t.TempDir(), "secret")
	write(t, filepath.Dir(outside), "secret", "SECRET")
	resolve := func(p string) (string, error) {
		abs := filepath.Join(root, p)
		if filepath.IsAbs(p) || strings.HasPrefix(filepath.Clean(p), "..") {
			return "", errors.New("outside")
		}
		return abs, nil
	}
	out, att := Expand(context.Background(), "look at @a.go, @dir and @big.txt but not @nope.go or @../secret or "+outside+" and @a.go again", resolve)
	if len(att) != 3 || att[0].Path != "a.go" || !att[1].Dir || !att[2].Cut {
		t.Fatalf("attached %+v", att)
	}
	for _, w := range []string{"<file path=\"a.go\">\npackage a\n</file>", "<directory path=\"dir\">\none.go\nsub/\n</directory>", "[cut here: big.txt is longer"} {
		if !strings.Contains(out, w) {
			t.Errorf("expanded prompt lacks %q", w)
		}
	}
	if strings.Contains(out, "SECRET") || strings.Count(out, "package a") != 1 {
		t.Errorf("outside file attached or a.go twice:\n%.300s", out)
	}
	if same, att := Expand(context.Background(), "no mentions here, email me@example.com", resolve); same != "no mentions here, email me@example.com" || att != nil {
		t.Errorf("a prompt without mentions changed: %q %v", same, att)
	}
}

// BenchmarkIndexAndMatch indexes a tree of 100,000 files and matches a
// query against it.
func BenchmarkIndexAndMatch(b *testing.B) {
	root := b.TempDir()
	for d := 0; d < 1000; d++ {
		for f := 0; f < 100; f++ {
			write(b, root, fmt.Sprintf("pkg%03d/sub/file%03d.go", d, f), "")
		}
	}
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		paths := wait(b, NewIndex(root))
		walk := time.Since(start)
		start = time.Now()
		got := Match(paths, "pkg42file7", 20)
		b.ReportMetric(float64(walk.Milliseconds()), "walk-ms")
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000, "match-ms")
		if len(paths) != 100000 || len(got) == 0 {
			b.Fatalf("%d paths, %d matches", len(paths), len(got))
		}
	}
}
