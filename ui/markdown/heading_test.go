package markdown_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/ui/markdown"
)

// TestHeadingPrefixes: styles with coloured or bold headings draw them
// without glamour's literal "#" prefixes; the plain styles keep them, as
// they are the only mark of a heading there.
func TestHeadingPrefixes(t *testing.T) {
	const md = "## Hello from tick\n\n### Details\n\nbody text"
	tests := []struct {
		style  markdown.Style
		hashes bool
	}{
		{markdown.Dark, false},
		{markdown.Light, false},
		{"dracula", false},
		{markdown.ASCII, true},
		{markdown.NoTTY, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.style), func(t *testing.T) {
			lines := markdown.Render(md, 60, tt.style)
			var h2, h3 string
			for _, l := range lines {
				switch p := strings.TrimSpace(ansi.Strip(l)); {
				case strings.HasSuffix(p, "Hello from tick"):
					h2 = l
				case strings.HasSuffix(p, "Details"):
					h3 = l
				}
			}
			if h2 == "" || h3 == "" {
				t.Fatalf("headings missing: %q", lines)
			}
			for _, h := range []string{h2, h3} {
				p := strings.TrimSpace(ansi.Strip(h))
				if got := strings.HasPrefix(p, "#"); got != tt.hashes {
					t.Errorf("heading %q: has # prefix = %v, want %v", p, got, tt.hashes)
				}
				if !tt.hashes && !strings.Contains(h, "\x1b[") {
					t.Errorf("heading %q is not styled", h)
				}
			}
		})
	}
}
