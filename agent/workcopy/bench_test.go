package workcopy_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tick-agent/tick/agent/workcopy"
)

// BenchmarkApply10k applies a task's copy that changed every file of a
// workspace of 10,000 small files in 100 directories (half modified,
// half replaced by new ones), plus 1,000 new files in new directories.
// Only Apply is timed.
func BenchmarkApply10k(b *testing.B) {
	ws := b.TempDir()
	for i := range 10000 {
		p := filepath.Join(ws, fmt.Sprintf("d%02d", i%100), fmt.Sprintf("f%05d.go", i))
		if i%100 == i {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("package p // %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		c, err := workcopy.New(ws, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		for i := range 10000 {
			p := filepath.Join(c.Dir, fmt.Sprintf("d%02d", i%100), fmt.Sprintf("f%05d.go", i))
			if err := os.WriteFile(p, []byte(fmt.Sprintf("package p // %d changed %d\n", i, n)), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		for i := range 1000 {
			p := filepath.Join(c.Dir, fmt.Sprintf("new%d-%02d", n, i%10), fmt.Sprintf("g%04d.go", i))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("package q\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		if _, conflicts, err := c.Apply(nil); err != nil || len(conflicts) > 0 {
			b.Fatal(conflicts, err)
		}
		b.StopTimer()
		_ = c.Remove()
		b.StartTimer()
	}
}

// BenchmarkNew10k makes the copy of a workspace of 10,000 small files in
// 100 directories (which also keeps each file's content for a merge,
// beside the copy). Only New is timed.
func BenchmarkNew10k(b *testing.B) {
	ws := b.TempDir()
	for i := range 10000 {
		p := filepath.Join(ws, fmt.Sprintf("d%02d", i%100), fmt.Sprintf("f%05d.go", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("package p // %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for n := 0; n < b.N; n++ {
		c, err := workcopy.New(ws, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = c.Remove()
		b.StartTimer()
	}
}
