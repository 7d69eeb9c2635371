package markdown_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/markdown"
)

// TestEntitiesNeverBecomeControlCharacters: a character reference that
// spells a control character (&#27; is ESC, &#x9b; is CSI, &#7; is BEL)
// reaches the terminal as nothing: what follows it shows as text, in a
// paragraph, a heading, a link's text and URL, a table cell and an HTML
// block. glamour resolved the references after tick had made the text
// safe, so "&#27;[31m" turned the answer red (and "&#27;]52;…" could
// write the clipboard).
func TestEntitiesNeverBecomeControlCharacters(t *testing.T) {
	ours := regexp.MustCompile("\x1b\\[[0-9;]*m|\x1b\\]8;;[^\x07\x1b]*\x07")
	const md = "Para &#27;[31mred &#x1b;]0;title&#7; &#155;2J end\n\n" +
		"# Head &#x1B;[5mblink\n\n" +
		"A [link &#27;[7mtext](http://e.example/&#x1b;[2Jpath) here\n\n" +
		"| &#27;[4mcell | b |\n|---|---|\n| 1 | 2 |\n\n" +
		"<div>&#27;[32mhtml</div>\n"
	for _, style := range []markdown.Style{markdown.Dark, markdown.Light, markdown.ASCII} {
		for _, w := range []int{30, 100} {
			lines := markdown.Render(md, w, style)
			raw := strings.Join(lines, "\n")
			for _, bad := range []string{"\u009b", "\x1b]0;", "\x1b[31m", "\x1b[5m", "\x1b[2J", "\x1b[7m", "\x1b[4m", "\x1b[32m"} {
				if strings.Contains(raw, bad) {
					t.Errorf("%s at %d: output holds %q:\n%q", style, w, bad, lines)
				}
			}
			rest := ours.ReplaceAllString(raw, "")
			for _, bad := range []string{"\x1b", "\x07", "\u009b"} {
				if strings.Contains(rest, bad) {
					t.Errorf("%s at %d: output holds %q besides its own styles and links:\n%q", style, w, bad, rest)
				}
			}
			shown := ansi.Strip(strings.Join(lines, " "))
			for _, want := range []string{"red", "blink", "text", "cell", "html", "end"} {
				if !strings.Contains(shown, want) {
					t.Errorf("%s at %d: %q is not shown as text:\n%s", style, w, want, shown)
				}
			}
		}
	}
}
