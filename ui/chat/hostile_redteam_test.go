package chat

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// hostileAnswer is Markdown a hostile model may stream, each part of
// which stalled the chat for minutes or drew gigabytes: a megabyte of C
// on one line crafted against a lexer rule, 4,000 nested list items, a
// 64 KB link, a 5,000-column table over 5,000 rows, a megabyte of HTML
// tags on one line, a megabyte of unclosed links and one of emphasis
// delimiters.
func hostileAnswer() string {
	var b strings.Builder
	b.WriteString("```c\n" + strings.Repeat(`'\`, 1<<19) + "\n```\n\n")
	for i := range 4000 {
		b.WriteString(strings.Repeat("  ", i) + "- a\n")
	}
	b.WriteString("\n[a](http://a.b/" + strings.Repeat("x", 64<<10) + ")\n\n")
	b.WriteString(strings.Repeat("|h", 5000) + "|\n" + strings.Repeat("|-", 5000) + "|\n" + strings.Repeat("x\n", 5000) + "\n")
	b.WriteString("<div>\n" + strings.Repeat("<b>", 1<<18) + "end\n</div>\n\n")
	b.WriteString(strings.Repeat("[a](", 1<<18) + "\n\n" + strings.Repeat("*a_", 1<<18) + "\n")
	return b.String()
}

// TestHostileAnswerStreamed streams hostileAnswer into the chat in 64 KB
// pieces, a frame drawn after each, then scrolls through the finished
// answer from top to bottom, a frame a page: every frame fits the pane
// (no line wider, a bounded number of bytes) and the code, the link and
// the HTML's text are all seen. A stall shows as the
// test's timeout.
func TestHostileAnswerStreamed(t *testing.T) {
	const w, h = 100, 27
	c := newPane(w, h)
	md := hostileAnswer()
	seen := map[string]bool{}
	check := func(when string) {
		t.Helper()
		out := c.View()
		size := 0
		for _, l := range out {
			for _, s := range []string{"'\\'\\", "xxxx", "end"} {
				seen[s] = seen[s] || strings.Contains(ansi.Strip(l), s)
			}
			size += len(l)
			if lw := ansi.StringWidth(l); lw > w {
				t.Fatalf("%s: a line %d cells wide in a %d-cell pane: %.120q", when, lw, w, l)
			}
		}
		if len(out) > h || size > 64*w*h {
			t.Fatalf("%s: a frame of %d lines, %d bytes", when, len(out), size)
		}
	}
	for i := 0; i < len(md); i += 64 << 10 {
		c.AppendText(md[i:min(i+64<<10, len(md))])
		check("streaming")
	}
	c.AssistantDone(md)
	check("done")
	c.ToTop()
	for range 20000 {
		check("scrolling")
		if c.Following() {
			break
		}
		c.ScrollDown(h)
	}
	for s, ok := range seen {
		if !ok {
			t.Errorf("scrolled through the answer without seeing %q", s)
		}
	}
}
