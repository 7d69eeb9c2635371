package markdown

import (
	"slices"
	"testing"
)

// TestBuiltOnFirstUse: nothing that only rendering needs is built before
// an answer is rendered (the first frame shows none): a new Pool has no
// parser, no theme and no lexer; a paragraph builds the parser and its
// style's theme, no lexer; a Go fence builds the Go lexer and no other;
// the unfinished tail (plain text while an answer streams) builds
// nothing.
func TestBuiltOnFirstUse(t *testing.T) {
	p := NewPool()
	lexers := func() []string {
		var names []string
		for n := range p.hl.lexers {
			names = append(names, n)
		}
		slices.Sort(names)
		return names
	}
	if p.md != nil || len(p.themes) != 0 || len(lexers()) != 0 {
		t.Fatal("a new pool has built something")
	}
	r := New(WithPool(p), WithWidth(60))
	r.Append("A streaming paragraph with `code`:\n```go\nfunc f() {}\n") // nothing finished yet
	r.Tail()
	if p.md != nil || len(lexers()) != 0 {
		t.Fatal("drawing the plain tail built the parser or a lexer")
	}
	Render("Just **text**.", 60, Dark, WithPool(p))
	if p.md == nil || len(p.themes) != 1 || len(lexers()) != 0 {
		t.Fatalf("a paragraph: parser %v, %d themes, lexers %q; want the parser, one theme, no lexer", p.md != nil, len(p.themes), lexers())
	}
	Render("```go\nfunc f() {}\n```\n\n```nosuchlang\nx\n```", 60, Dark, WithPool(p))
	if got := lexers(); !slices.Equal(got, []string{"go"}) {
		t.Errorf("lexers built: %q, want only go's", got)
	}
}
