package markdown

import (
	"strings"
	"testing"
)

// nestedList returns n list items, each nested in the one before.
func nestedList(n int, marker string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i*len(marker)) + marker + "a\n")
	}
	return b.String()
}

// TestDeepNestingDrawnPlain: a block nested deeper than maxNesting is
// drawn as its plain text without being parsed (goldmark takes time cubic
// in the nesting: the 4,000 nested items here, 80 KB, took minutes to
// parse; a stall shows as the test's timeout), also as logical text; a
// list nested a few levels is still drawn as a list.
func TestDeepNestingDrawnPlain(t *testing.T) {
	cases := []struct {
		name, md, want string
	}{
		{"200 nested items", nestedList(200, "- "), "- a"},
		{"4,000 nested items", nestedList(4000, "- "), "- a"},
		{"4,000 nested numbered items", nestedList(4000, "1. "), "1. a"},
		{"20,000 nested quotes", strings.Repeat(">", 20000) + " a\n", ">>>> a"},
		{"quotes in items", strings.Repeat("- > ", 5000) + "a\n", "- > - > a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := New(WithWidth(80))
			r.Append(tc.md)
			r.Finish()
			out := strings.Join(r.Lines(), "\n")
			if !strings.Contains(out, tc.want) {
				t.Errorf("drawn %.300q, want the plain text %q", out, tc.want)
			}
			if got := r.LogicalBlock(0); !strings.Contains(got, tc.want) {
				t.Errorf("logical text %.300q, want %q", got, tc.want)
			}
		})
	}
	shallow := strings.Join(Render(nestedList(10, "- "), 80, Dark), "\n")
	if strings.Contains(shallow, "- a") || strings.Count(shallow, "a") != 10 {
		t.Errorf("a list nested 10 deep drawn %q, want a list of 10 items", shallow)
	}
}

// TestCostlyInlinesDrawnPlain: a paragraph of 1 MB repeating an unclosed
// link ("[a](") or mixed emphasis delimiters ("*a_") is drawn as its
// plain text without being parsed: goldmark took time quadratic in it
// (minutes; a stall shows as the test's timeout). A paragraph of a
// hundred links and a hundred emphases is still Markdown.
func TestCostlyInlinesDrawnPlain(t *testing.T) {
	for _, unit := range []string{"[a](", "*a_"} {
		out := strings.Join(Render(strings.Repeat(unit, (1<<20)/len(unit))+"\n", 80, Dark), "")
		if got := strings.Count(out, unit); got < (1<<20)/len(unit)/2 {
			t.Errorf("a megabyte of %q drawn with %d of them, want its plain text", unit, got)
		}
	}
	md := strings.Repeat("a [link](http://a.b/c) and *some* _emphasis_ ", 100) + "\n"
	out := strings.Join(Render(md, 80, Dark), "\n")
	if strings.Contains(out, "](") || strings.Contains(out, "*some*") {
		t.Errorf("a paragraph of 100 links and emphases drawn as its source")
	}
}
