package markdown_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/markdown"
)

// joined returns Block(0), ..., Block(Blocks()-1) and Tail() one after the
// other, asking for the blocks in the order given by perm (nil: in order).
func joined(r *markdown.Renderer, perm []int) []string {
	n := r.Blocks()
	parts := make([][]string, n)
	order := perm
	if order == nil {
		order = make([]int, n)
		for i := range order {
			order[i] = i
		}
	}
	for _, i := range order {
		parts[i] = r.Block(i)
	}
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return append(out, r.Tail()...)
}

// TestBlocksAndTailAreLines: laid out lazily — only the last blocks and the
// tail asked for while streaming, the rest in any order at the end, at
// changing widths — the blocks and the tail are exactly the lines of a
// renderer given the same text at once.
func TestBlocksAndTailAreLines(t *testing.T) {
	const width = 60
	for _, style := range []struct {
		style  markdown.Style
		stride int
	}{{markdown.NoTTY, 7}, {markdown.Dark, 23}} {
		t.Run(string(style.style), func(t *testing.T) {
			t.Parallel()
			pool := markdown.NewPool()
			newR := func(w int) *markdown.Renderer {
				return markdown.New(markdown.WithWidth(w), markdown.WithPool(pool), markdown.WithStyle(style.style))
			}
			want := newR(width)
			want.Append(sampleDoc)
			want.Finish()
			rng := rand.New(rand.NewPCG(7, uint64(style.stride)))
			for i := 1; i < len(sampleDoc); i += style.stride {
				r := newR(width)
				r.Append(sampleDoc[:i])
				// A frame: the tail and the last two blocks, bottom up.
				r.Tail()
				for k := r.Blocks() - 1; k >= max(r.Blocks()-2, 0); k-- {
					r.Block(k)
				}
				fresh := newR(width)
				fresh.Append(sampleDoc[:i])
				if got := joined(r, rng.Perm(r.Blocks())); !slices.Equal(got, fresh.Lines()) {
					t.Fatalf("after %d bytes: blocks+tail differ from Lines", i)
				}
				// A resize that shows only the last block, and back.
				r.SetWidth(33)
				r.Block(r.Blocks() - 1)
				r.SetWidth(width)
				r.Append(sampleDoc[i:])
				r.Finish()
				r.Block(r.Blocks() - 1)
				got := joined(r, rng.Perm(r.Blocks()))
				diffLines(t, got, want.Lines())
				diffLines(t, r.Lines(), want.Lines())
			}
		})
	}
}

// TestInvisibleLeadingBlocks: the blank line between blocks goes only
// between blocks that show something, whichever block is asked for first.
func TestInvisibleLeadingBlocks(t *testing.T) {
	const doc = "<!-- hidden -->\n\n[ref]: https://example.com\n\nFirst [visible][ref].\n\n<!-- between -->\n\nSecond.\n\nTail"
	whole := markdown.New(markdown.WithWidth(50))
	whole.Append(doc)
	want := whole.Lines()
	if len(want) == 0 || want[0] == "" || !strings.HasPrefix(ansi.Strip(want[0]), "  First") {
		t.Fatalf("whole message starts with %q, want the first visible paragraph", want)
	}
	tests := []struct {
		name string
		perm []int
	}{
		{"in order", nil},
		{"last first", []int{4, 3, 2, 1, 0}},
		{"visible first", []int{2, 4, 0, 1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := markdown.New(markdown.WithWidth(50))
			r.Append(doc)
			if r.Blocks() != 5 {
				t.Fatalf("%d blocks, want 5: %q", r.Blocks(), r.BlockSources())
			}
			diffLines(t, joined(r, tt.perm), want)
			if got := r.Block(0); got != nil {
				t.Errorf("Block(0) = %q, want nothing for a comment", got)
			}
			if got := r.Block(2); len(got) == 0 || got[0] == "" {
				t.Errorf("Block(2) = %q: the first visible block gets no blank line above", got)
			}
			if got := r.Block(4); len(got) == 0 || got[0] != "" {
				t.Errorf("Block(4) = %q: want a blank line above", got)
			}
			if got := r.Tail(); len(got) != 2 || got[0] != "" {
				t.Errorf("Tail() = %q: want a blank line and the tail", got)
			}
		})
	}
}

// TestBlockRendersOnDemand: a long finished message renders nothing until
// a block is asked for, then that block (and the first block, which
// decides the blank line above it), once per width.
func TestBlockRendersOnDemand(t *testing.T) {
	var doc strings.Builder
	for i := range 100 {
		fmt.Fprintf(&doc, "Paragraph %d, *short*.\n\n", i)
	}
	doc.WriteString("The tail")
	r := markdown.New(markdown.WithWidth(40))
	r.Append(doc.String())
	if r.Blocks() != 100 {
		t.Fatalf("%d blocks, want 100", r.Blocks())
	}
	steps := []struct {
		name    string
		do      func() []string
		want    string // the line that shows (plain), "" for none
		renders int
	}{
		{"tail", r.Tail, "  The tail", 1},
		{"last block", func() []string { return r.Block(99) }, "  Paragraph 99, short.", 2},
		{"last block again", func() []string { return r.Block(99) }, "  Paragraph 99, short.", 2},
		{"a block in the middle", func() []string { return r.Block(50) }, "  Paragraph 50, short.", 3},
		{"out of range", func() []string { return r.Block(100) }, "", 3},
		{"negative", func() []string { return r.Block(-1) }, "", 3},
		{"new width", func() []string { r.SetWidth(30); return r.Block(99) }, "  Paragraph 99, short.", 5},
		{"old width is cached", func() []string { r.SetWidth(40); return r.Block(50) }, "  Paragraph 50, short.", 5},
		{"finish renders nothing", func() []string { r.Finish(); return nil }, "", 5},
		{"the finished tail", func() []string { return r.Block(100) }, "  The tail", 6},
	}
	for _, s := range steps {
		got := s.do()
		var plain []string
		for _, l := range got {
			if l != "" {
				plain = append(plain, strings.TrimRight(ansi.Strip(l), " "))
			}
		}
		switch {
		case s.want == "" && len(plain) != 0:
			t.Errorf("%s: got %q, want nothing", s.name, plain)
		case s.want != "" && !slices.Equal(plain, []string{s.want}):
			t.Errorf("%s: got %q, want %q", s.name, plain, s.want)
		}
		if s.want != "" && got[0] != "" {
			t.Errorf("%s: %q has no blank line above", s.name, got)
		}
		if n := r.RenderCount(); n != s.renders {
			t.Errorf("%s: %d renders, want %d", s.name, n, s.renders)
		}
	}
	if r.Renders() != r.RenderCount() {
		t.Errorf("Renders() = %d, RenderCount() = %d", r.Renders(), r.RenderCount())
	}
}
