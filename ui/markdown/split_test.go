package markdown_test

import (
	"slices"
	"testing"

	"github.com/tick-agent/tick/ui/markdown"
)

func TestBlockSplitting(t *testing.T) {
	tests := []struct {
		name   string
		deltas []string
		finish bool
		blocks []string
		tail   string
	}{
		{name: "empty", deltas: nil, blocks: nil, tail: ""},
		{name: "empty finished", deltas: []string{""}, finish: true, blocks: nil, tail: ""},
		{name: "only blank lines", deltas: []string{"\n\n  \n\t\n"}, finish: true, blocks: nil, tail: ""},
		{name: "paragraph without newline", deltas: []string{"Hello"}, blocks: nil, tail: "Hello"},
		{name: "complete line is still tail", deltas: []string{"Hello\n"}, blocks: nil, tail: "Hello\n"},
		{name: "blank line finishes paragraph", deltas: []string{"Hello\n\n"}, blocks: []string{"Hello\n"}, tail: ""},
		{name: "whitespace line is blank", deltas: []string{"Hello\n \t \nWorld"}, blocks: []string{"Hello\n"}, tail: "World"},
		{name: "two paragraphs and leading blanks", deltas: []string{"\n\nOne\ntwo\n\n\n\nThree\n\nFour"},
			blocks: []string{"One\ntwo\n", "Three\n"}, tail: "Four"},
		{name: "finish makes tail a block", deltas: []string{"One\n\nTwo"}, finish: true,
			blocks: []string{"One\n", "Two"}, tail: ""},
		{name: "blank line inside fence does not split", deltas: []string{"```go\na\n\nb\n```\nafter"},
			blocks: []string{"```go\na\n\nb\n```\n"}, tail: "after"},
		{name: "closing fence finishes block with text before it", deltas: []string{"Run:\n```sh\nls\n```\n\nDone"},
			blocks: []string{"Run:\n```sh\nls\n```\n"}, tail: "Done"},
		{name: "open fence stays in tail", deltas: []string{"Intro\n\n```go\nfunc f() {\n\n\treturn\n"},
			blocks: []string{"Intro\n"}, tail: "```go\nfunc f() {\n\n\treturn\n"},
		{name: "fence split across deltas", deltas: []string{"`", "``", "py\nx = 1\n\n", "y = 2\n`", "``", "\n\nz"},
			blocks: []string{"```py\nx = 1\n\ny = 2\n```\n"}, tail: "z"},
		{name: "closing fence without newline needs finish", deltas: []string{"```\ncode\n```"},
			blocks: nil, tail: "```\ncode\n```"},
		{name: "open fence becomes block on finish", deltas: []string{"```\ncode\n\nmore"}, finish: true,
			blocks: []string{"```\ncode\n\nmore"}, tail: ""},
		{name: "tilde fence ignores backticks", deltas: []string{"~~~\n```\n\n~~~\n\nx"},
			blocks: []string{"~~~\n```\n\n~~~\n"}, tail: "x"},
		{name: "longer fence needs as long a closer", deltas: []string{"````md\n```\n\n```\n````\n\nx"},
			blocks: []string{"````md\n```\n\n```\n````\n"}, tail: "x"},
		{name: "closer with trailing spaces", deltas: []string{"```\na\n\n```  \nb"},
			blocks: []string{"```\na\n\n```  \n"}, tail: "b"},
		{name: "closer with text is not a closer", deltas: []string{"```\na\n```x\n\nb"},
			blocks: nil, tail: "```\na\n```x\n\nb"},
		{name: "inline triple backticks are not a fence", deltas: []string{"```inline``` code\n\nnext"},
			blocks: []string{"```inline``` code\n"}, tail: "next"},
		{name: "indented fence in a list item", deltas: []string{"1. Run\n\n   ```sh\n   a\n\n   b\n   ```\n\n2. Then"},
			blocks: []string{"1. Run\n", "   ```sh\n   a\n\n   b\n   ```\n"}, tail: "2. Then"},
		{name: "CRLF", deltas: []string{"a\r\n\r\nb\r\n"}, blocks: []string{"a\n"}, tail: "b\n"},
		{name: "CRLF split between CR and LF", deltas: []string{"a\r", "\n\r", "\nb"}, blocks: []string{"a\n"}, tail: "b"},
		{name: "lone CR", deltas: []string{"a\r\rb"}, blocks: []string{"a\n"}, tail: "b"},
		{name: "CR at end then finish", deltas: []string{"a\r"}, finish: true, blocks: []string{"a\n"}, tail: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := markdown.New()
			for _, d := range tt.deltas {
				r.Append(d)
			}
			if tt.finish {
				r.Finish()
			}
			if got := r.BlockSources(); !slices.Equal(got, tt.blocks) {
				t.Errorf("blocks = %q, want %q", got, tt.blocks)
			}
			if got := r.TailText(); got != tt.tail {
				t.Errorf("tail = %q, want %q", got, tt.tail)
			}
		})
	}
}

func TestListContinuationDedent(t *testing.T) {
	tests := []struct {
		name    string
		md      string
		dedents []int
	}{
		{name: "loose bullet list", md: "- a\n\n- b\n\n- c", dedents: []int{0, 0, 0}},
		{name: "continuation paragraph of ordered item", md: "1. a\n\n   more about a\n\n2. b", dedents: []int{0, 3, 0}},
		{name: "continuation of bullet item", md: "- a\n\n  more\n\n  ```sh\n  ls\n  ```\n", dedents: []int{0, 2, 2}},
		{name: "nested list after blank", md: "- a\n\n  - sub\n\n- b", dedents: []int{0, 2, 0}},
		{name: "wide marker", md: "10. ten\n\n    more", dedents: []int{0, 4}},
		{name: "indented code outside a list stays", md: "para\n\n    code", dedents: []int{0, 0}},
		{name: "paragraph ends list context", md: "- a\n\npara\n\n  indented", dedents: []int{0, 0, 0}},
		{name: "thematic break is not a list", md: "* * *\n\n  x", dedents: []int{0, 0}},
		{name: "dedent limited to item content", md: "- a\n\n      deep", dedents: []int{0, 2}},
		{name: "items inside a fence do not count", md: "1. run\n```\n- x\n```\n\n   more", dedents: []int{0, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := markdown.New()
			r.Append(tt.md)
			r.Finish()
			if got := r.Dedents(); !slices.Equal(got, tt.dedents) {
				t.Errorf("dedents = %v, want %v (blocks %q)", got, tt.dedents, r.BlockSources())
			}
		})
	}
}
