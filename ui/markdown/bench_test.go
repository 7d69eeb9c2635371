package markdown_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tick-agent/tick/ui/markdown"
)

// benchDoc returns an n-byte answer of the kind a coding agent writes:
// headings, paragraphs with inline markup, lists, a loose list with an
// indented fence, Go code, a table and a quote, repeated.
func benchDoc(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "## Section %d\n\n", i)
		b.WriteString("This paragraph explains **what** changed and *why*, with `inline code`, a " +
			"[link](https://example.com/docs) and enough words to wrap across a couple of lines " +
			"in a terminal of ordinary width.\n\n")
		b.WriteString("- first point\n- second point with `code`\n- third point\n\n")
		b.WriteString("1. Step one:\n\n   ```sh\n   go test ./...\n   ```\n\n2. Step two\n\n")
		b.WriteString("```go\nfunc f(x int) int {\n\tif x > 0 {\n\t\treturn x * 2\n\t}\n\n\treturn -x\n}\n```\n\n")
		b.WriteString("| key | value |\n|-----|-------|\n| a | 1 |\n| b | 2 |\n\n> Note: keep it simple.\n\n")
	}
	return b.String()[:n]
}

// BenchmarkAppendStream streams a 100,000-character answer in 5-character
// deltas and repaints (calls Lines) every 30 deltas, as the chat pane does
// at ~30 fps. One op is the whole answer.
func BenchmarkAppendStream(b *testing.B) {
	doc := benchDoc(100_000)
	pool := markdown.NewPool()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		r := markdown.New(markdown.WithWidth(100), markdown.WithPool(pool))
		for i, k := 0, 0; i < len(doc); i, k = i+5, k+1 {
			r.Append(doc[i:min(i+5, len(doc))])
			if k%30 == 29 {
				r.Lines()
			}
		}
		r.Finish()
		r.Lines()
	}
}

// BenchmarkAppendOnly is the Append half of BenchmarkAppendStream: storing
// the text and finding finished blocks, no rendering.
func BenchmarkAppendOnly(b *testing.B) {
	doc := benchDoc(100_000)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		r := markdown.New(markdown.WithWidth(100))
		for i := 0; i < len(doc); i += 5 {
			r.Append(doc[i:min(i+5, len(doc))])
		}
		r.Finish()
	}
}

// BenchmarkLinesCached calls Lines on a finished 100,000-character answer
// that is already rendered: the cost of a repaint with nothing new.
func BenchmarkLinesCached(b *testing.B) {
	r := markdown.New(markdown.WithWidth(100))
	r.Append(benchDoc(100_000))
	r.Finish()
	r.Lines()
	b.ReportAllocs()
	for b.Loop() {
		if len(r.Lines()) == 0 {
			b.Fatal("no lines")
		}
	}
}

// BenchmarkRender renders a complete 100,000-character answer in one go (a
// restored transcript, or a resize to a width not rendered before).
func BenchmarkRender(b *testing.B) {
	doc := benchDoc(100_000)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		markdown.Render(doc, 100, markdown.Dark)
	}
}

// BenchmarkLongLineStream streams one 100,000-character line (no newline
// until the end, like minified JSON) with a repaint every 30 deltas: the
// unfinished line is re-wrapped on each repaint.
func BenchmarkLongLineStream(b *testing.B) {
	doc := strings.Repeat("lorem ipsum dolor sit amet ", 100_000/27+1)[:100_000]
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		r := markdown.New(markdown.WithWidth(100))
		for i, k := 0, 0; i < len(doc); i, k = i+5, k+1 {
			r.Append(doc[i:min(i+5, len(doc))])
			if k%30 == 29 {
				r.Lines()
			}
		}
		r.Finish()
		r.Lines()
	}
}

// BenchmarkFollowStream is BenchmarkAppendStream laid out the way the chat
// pane follows a stream: every 600 deltas (a frame of a very fast stream)
// it asks only for the tail and the last blocks that fill 40 lines, so
// blocks that scroll by between two frames are never rendered.
func BenchmarkFollowStream(b *testing.B) {
	doc := benchDoc(100_000)
	pool := markdown.NewPool()
	frame := func(r *markdown.Renderer) {
		n := len(r.Tail())
		for i := r.Blocks() - 1; i >= 0 && n < 40; i-- {
			n += len(r.Block(i))
		}
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		r := markdown.New(markdown.WithWidth(100), markdown.WithPool(pool))
		for i, k := 0, 0; i < len(doc); i, k = i+5, k+1 {
			r.Append(doc[i:min(i+5, len(doc))])
			if k%600 == 599 {
				frame(r)
			}
		}
		r.Finish()
		frame(r)
	}
}
