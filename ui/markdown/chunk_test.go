package markdown_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/ui/markdown"
)

// TestLongFenceInChunks: a code fence longer than FenceChunk lines becomes
// several blocks (so only those on screen are rendered), and its lines
// show in order with no gap where one chunk ends, while it streams and
// once finished; the text after the fence is a block of its own.
func TestLongFenceInChunks(t *testing.T) {
	n := 3*markdown.FenceChunk + 10
	var sb strings.Builder
	sb.WriteString("Intro.\n\n```go\n")
	for i := range n {
		fmt.Fprintf(&sb, "x%03d := %d\n", i, i)
	}
	half := sb.Len()
	sb.WriteString("```\n\nAfter.\n")
	doc := sb.String()

	r := markdown.New(markdown.WithWidth(80))
	r.Append(doc[:half])
	if r.Blocks() < 1+3 {
		t.Fatalf("%d blocks while the fence streams, want the intro and 3 chunks", r.Blocks())
	}
	checkCode(t, "streaming", r.Lines(), n)
	r.Append(doc[half:])
	r.Finish()
	lines := r.Lines()
	checkCode(t, "finished", lines, n)
	if !strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "After.") {
		t.Error("the text after the fence is missing")
	}
	for i, src := range r.BlockSources()[1:4] {
		if !strings.HasPrefix(src, "```go\n") || !strings.HasSuffix(src, "```\n") {
			t.Errorf("chunk %d is not a whole fence: %q…%q", i, src[:min(len(src), 12)], src[max(len(src)-12, 0):])
		}
	}
}

// checkCode checks that the code lines x000..x(n-1) appear in order, one
// after the other (no blank line between two chunks).
func checkCode(t *testing.T, when string, lines []string, n int) {
	t.Helper()
	next, prev := 0, -1
	for i, l := range lines {
		p := strings.TrimSpace(ansi.Strip(l))
		if next < n && strings.HasPrefix(p, fmt.Sprintf("x%03d ", next)) {
			if next > 0 && i != prev+1 {
				t.Errorf("%s: a gap before code line %d", when, next)
			}
			prev = i
			next++
		}
	}
	if when == "finished" && next != n {
		t.Errorf("%s: %d of %d code lines in order", when, next, n)
	}
	if when == "streaming" && next < n-1 {
		t.Errorf("%s: %d of %d code lines in order", when, next, n)
	}
}

// TestRenderCacheBounded: showing every block of a long answer keeps at
// most MaxCachedLines rendered lines (plus the last block), and a block
// shown again after being forgotten renders the same.
func TestRenderCacheBounded(t *testing.T) {
	r := markdown.New(markdown.WithWidth(80))
	r.Append(benchDoc(300_000))
	r.Finish()
	first := append([]string(nil), r.Block(0)...)
	for i := range r.Blocks() {
		r.Block(i)
		if n := r.CachedLines(); n > markdown.MaxCachedLines+len(r.Block(i))+1 {
			t.Fatalf("after block %d: %d cached lines, want at most %d", i, n, markdown.MaxCachedLines)
		}
	}
	if again := r.Block(0); strings.Join(again, "\n") != strings.Join(first, "\n") {
		t.Error("block 0 renders differently after being forgotten")
	}
}
