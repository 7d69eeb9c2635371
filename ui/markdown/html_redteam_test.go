package markdown

import (
	"strings"
	"testing"
)

// TestHTMLBlockHostile renders HTML blocks a hostile model may send: a
// megabyte of tags on one line (stripping them lowered the rest of the
// block at every tag: time quadratic in the block, minutes for this one)
// and tags holding letters whose lower case is longer in UTF-8 than their
// upper case (the tags' ends were found in the lowered text and cut from
// the original: a wrong cut or a slice out of range, a crash). The text
// between the tags is drawn, the tags are not.
func TestHTMLBlockHostile(t *testing.T) {
	cases := []struct{ name, md, want string }{
		{"a megabyte of tags", "<div>\n" + strings.Repeat("<b>", 1<<18) + "end\n</div>\n", "end"},
		{"tags of growing letters", "<div>\n<b title=\"" + strings.Repeat("Ⱥ", 10) + "\">kept</b>\n</div>\n", "kept"},
		{"script of growing letters", "<div>\n<SCRIPT>" + strings.Repeat("Ⱥ", 10) + "</script>after\n</div>\n", "after"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range []int{80, 12} {
				out := strings.Join(Render(tc.md, w, Dark), "\n")
				if !strings.Contains(out, tc.want) || strings.Contains(out, "<b") || strings.Contains(out, "Ⱥ") {
					t.Errorf("width %d: drawn %.200q, want %q without the tags", w, out, tc.want)
				}
			}
		})
	}
}
