package checkpoint

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// BenchmarkSave100k measures checkpoints of a workspace of 100,000 small
// files, as BenchmarkSave10k does at 10,000: the first snapshot hashes
// everything, an incremental one only stats. It is the cost of the undo
// point tick makes at every user message (taken off the input path).
func BenchmarkSave100k(b *testing.B) {
	ctx := context.Background()
	s, ws := open(b)
	for i := 0; i < 100000; i++ {
		write(b, ws, fmt.Sprintf("pkg%04d/file%d.go", i/100, i), fmt.Sprintf("package p%d\n// %s\n", i, strings.Repeat("x", 200)))
	}
	b.Run("first", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			os.RemoveAll(s.dir)
			s2, err := Open(ctx, s.dir, ws)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := s2.Save(ctx, "first"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("incremental", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			write(b, ws, "pkg0000/file0.go", fmt.Sprintf("package p0 // %d\n", i))
			if _, err := s.Save(ctx, "next"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
