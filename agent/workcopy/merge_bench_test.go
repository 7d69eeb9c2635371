package workcopy_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent/workcopy"
)

// BenchmarkMerge5k merges one file of 5,000 lines changed on both sides:
// the workspace changed every 50th line, the task every 50th line from
// the 25th, and both line 2,500 (one conflict). Only Merge is timed.
func BenchmarkMerge5k(b *testing.B) {
	lines := make([]string, 5000)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %d", i)
	}
	edit := func(from int, tag string) string {
		out := append([]string(nil), lines...)
		for i := from; i < len(out); i += 50 {
			out[i] += " " + tag
		}
		out[2500] = "both " + tag
		return strings.Join(out, "\n") + "\n"
	}
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		ws := b.TempDir()
		write(b, filepath.Join(ws, "big.txt"), strings.Join(lines, "\n")+"\n")
		c, err := workcopy.New(ws, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		write(b, filepath.Join(ws, "big.txt"), edit(0, "user"))
		write(b, filepath.Join(c.Dir, "big.txt"), edit(25, "task"))
		b.StartTimer()
		res, err := c.Merge(nil)
		if err != nil || len(res.Merged) != 1 || res.Merged[0].Conflicts != 1 {
			b.Fatal(res, err)
		}
		b.StopTimer()
		_ = c.Remove()
		b.StartTimer()
	}
}
