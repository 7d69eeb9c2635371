package markdown_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/ui/markdown"
)

// TestLogicalBlock: a block's logical text is its words unwrapped and
// undecorated: a paragraph one line, a quote without its bar, code as
// written (tabs, no margin, no highlighting), a heading without its
// padding, inline code without its padding; bullets and table rules stay.
func TestLogicalBlock(t *testing.T) {
	long := "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike"
	tests := []struct{ name, md, want string }{
		{"paragraph", long + "\nsecond line", long + " second line"},
		{"quote", "> " + long + "\n> more", long + " more"},
		{"code", "```go\nfunc f() {\n\treturn // " + long + "\n}\n```", "func f() {\n\treturn // " + long + "\n}"},
		{"unknown language", "```zzz\n  x := 1\n```", "  x := 1"},
		{"heading", "## A **bold** heading", "A bold heading"},
		{"inline code", "run `go test` now", "run go test now"},
		{"list", "- " + long + "\n- two", "• " + long + "\n• two"},
		{"escape sequence", "a \x1b[31mred\x1b[0m word", "a red word"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := markdown.New(markdown.WithWidth(30), markdown.WithStyle(markdown.Dark))
			r.Append(tt.md)
			r.Finish()
			if got := r.LogicalBlock(0); got != tt.want {
				t.Errorf("LogicalBlock(0) = %q, want %q", got, tt.want)
			}
			if got := r.LogicalBlock(1); got != "" {
				t.Errorf("LogicalBlock(1) of one block = %q", got)
			}
		})
	}
}

// TestLogicalTail: the unfinished tail's logical text is its text as it
// arrived (tabs kept), made safe.
func TestLogicalTail(t *testing.T) {
	r := markdown.New(markdown.WithWidth(20))
	r.Append("Done.\n\nsome\ttext that \x1b]52;c;eA==\x07streams")
	if got, want := r.LogicalTail(), "some\ttext that streams"; got != want {
		t.Errorf("LogicalTail() = %q, want %q", got, want)
	}
	r.Finish()
	if got := r.LogicalTail(); got != "" {
		t.Errorf("LogicalTail() after Finish = %q", got)
	}
}

// TestLogicalBlockShown: every character of a block's logical text is
// shown by the block, in order, at any width and in every style (the mouse
// copy finds them there).
func TestLogicalBlockShown(t *testing.T) {
	md := "# Title `x`\n\nA *para* with [a link](https://example.com/a) and Pneumonoultramicroscopicsilicovolcanoconiosis.\n\n" +
		"> quote **b**\n>\n> 1. in it\n\n- a\n  - b\n    continued\n\n```sh\necho \"$x\"\t# tab\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n漢字のテキスト ![img](https://example.com/i.png)"
	var chunked strings.Builder
	chunked.WriteString("```\n")
	for i := range markdown.FenceChunk + 5 {
		fmt.Fprintf(&chunked, "line %d\n", i)
	}
	chunked.WriteString("```\n")
	for _, style := range []markdown.Style{markdown.Dark, markdown.Light, markdown.ASCII, markdown.NoTTY} {
		for _, w := range []int{12, 40, 100} {
			for _, src := range []string{md, chunked.String()} {
				r := markdown.New(markdown.WithWidth(w), markdown.WithStyle(style))
				r.Append(src)
				r.Finish()
				for i := range r.Blocks() {
					text, shown := r.LogicalBlock(i), ansi.Strip(strings.Join(r.Block(i), "\n"))
					if rest := unshown(text, shown); rest != "" {
						t.Errorf("%s at %d: block %d shows its logical text %q only up to %q:\n%s", style, w, i, text, rest, shown)
					}
				}
			}
		}
	}
}

// unshown returns the rest of text from its first non-blank character
// that shown does not have in order ("" when all are there).
func unshown(text, shown string) string {
	s := []rune(shown)
	j := 0
	for i, c := range text {
		if unicode.IsSpace(c) {
			continue
		}
		for j < len(s) && s[j] != c {
			j++
		}
		if j == len(s) {
			return text[i:]
		}
		j++
	}
	return ""
}
