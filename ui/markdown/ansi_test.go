package markdown_test

import (
	"testing"

	"github.com/tick-agent/tick/ui/markdown"
)

func TestTrimLine(t *testing.T) {
	const (
		fg    = "\x1b[38;5;252m"
		reset = "\x1b[m"
		pad   = fg + " " + reset
	)
	tests := []struct {
		name    string
		in      string
		want    string
		visible bool
	}{
		{name: "empty", in: "", want: "", visible: false},
		{name: "plain trailing spaces", in: "  text   ", want: "  text", visible: true},
		{name: "plain blank", in: "    ", want: "", visible: false},
		{name: "glamour padding dropped", in: "  " + fg + "text" + reset + pad + pad + pad,
			want: "  " + fg + "text" + reset, visible: true},
		{name: "cut inside a style gets a reset", in: fg + "text " + "   " + reset,
			want: fg + "text" + reset, visible: true},
		{name: "styled blank line", in: "  " + pad + pad, want: "", visible: false},
		{name: "background spaces are visible", in: "\x1b[48;5;63m  x  \x1b[m" + pad,
			want: "\x1b[48;5;63m  x  " + reset, visible: true},
		{name: "background-only line is visible", in: "\x1b[38;5;228;48;5;63;1m   \x1b[m",
			want: "\x1b[38;5;228;48;5;63;1m   " + reset, visible: true},
		{name: "background reset makes spaces invisible", in: "\x1b[44mx\x1b[49m   ", want: "\x1b[44mx" + reset, visible: true},
		{name: "underlined spaces are visible", in: "\x1b[4ma  \x1b[24m  ", want: "\x1b[4ma  " + reset, visible: true},
		{name: "truecolor fg params are not a background", in: "\x1b[38;2;48;48;48mx   \x1b[m", want: "\x1b[38;2;48;48;48mx" + reset, visible: true},
		{name: "hyperlink end kept", in: "\x1b]8;;http://x\x07link  \x1b]8;;\x07" + pad,
			want: "\x1b]8;;http://x\x07link\x1b]8;;\x07" + reset, visible: true},
		{name: "nothing to trim is unchanged", in: fg + "text" + reset + "x", want: fg + "text" + reset + "x", visible: true},
		{name: "wide characters", in: fg + "世界" + reset + pad, want: fg + "世界" + reset, visible: true},
		{name: "truncated escape does not panic", in: "x \x1b[38;5", want: "x", visible: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, visible := markdown.TrimLine(tt.in)
			if got != tt.want || visible != tt.visible {
				t.Errorf("trimLine(%q) = %q, %v; want %q, %v", tt.in, got, visible, tt.want, tt.visible)
			}
		})
	}
}
