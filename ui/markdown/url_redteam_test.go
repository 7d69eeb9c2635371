package markdown

import (
	"strings"
	"testing"
)

// TestLongURLBounded: a link whose target is 64 KB (bare, autolink,
// inline link, link in a table cell) is drawn in lines whose bytes stay
// within a small multiple of the Markdown's: the OSC 8 target was written
// again on each of the hundreds of lines the URL wraps onto (54 MB for
// this one; gigabytes for a megabyte). The URL itself is still drawn.
func TestLongURLBounded(t *testing.T) {
	long := "http://a.b/" + strings.Repeat("x", 64<<10)
	short := "http://a.b/short"
	for _, tc := range []struct{ name, md string }{
		{"bare", long + " and " + short + "\n"},
		{"autolink", "<" + long + "> and <" + short + ">\n"},
		{"link", "[a](" + long + ") and [b](" + short + ")\n"},
		{"table", "|a|b|\n|-|-|\n|[a](" + long + ")|[b](" + short + ")|\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := Render(tc.md, 80, Dark)
			total, xs := 0, 0
			for _, l := range out {
				total += len(l)
				xs += strings.Count(l, "x")
			}
			if limit := 4*len(tc.md) + 64<<10; total > limit {
				t.Errorf("%d bytes of Markdown drawn in %d bytes, want at most %d", len(tc.md), total, limit)
			}
			if xs < 64<<10 {
				t.Errorf("the URL's %d x drawn %d times", 64<<10, xs)
			}
			if all := strings.Join(out, "\n"); !strings.Contains(all, "\x1b]8;;"+short) {
				t.Errorf("the short link is no hyperlink any more")
			}
		})
	}
}
