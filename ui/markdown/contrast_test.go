package markdown

import (
	"image/color"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// TestThemeContrast: in Light and Dark every colour of the Markdown
// theme reads against its background: 4.5:1 for prose (headings, links,
// inline code), 3:1 for the code highlighting theme's tokens.
func TestThemeContrast(t *testing.T) {
	for _, s := range []Style{Light, Dark} {
		p := paletteFor(s)
		n := 0
		check := func(name string, l look, want float64) {
			if l.fg == "" {
				return
			}
			n++
			a := makeAttr(l, s.Background(), want)
			fg, ok := paramColour(a.fg)
			if !ok {
				t.Fatalf("%s %s: cannot read %q", s, name, a.fg)
			}
			bg := s.Background()
			if l.bg != "" {
				bg = lipgloss.Color(l.bg)
			}
			if r := Contrast(fg, bg); r < want {
				t.Errorf("%s %s: %s on %v is %.2f:1, want %.1f:1", s, name, a.fg, bg, r, want)
			}
		}
		for name, l := range map[string]look{"heading": p.heading, "h1": p.h1, "h6": p.h6, "code": p.code,
			"link": p.link, "linkText": p.linkText, "image": p.image, "imageText": p.imageText, "rule": p.rule} {
			check(name, l, MinTextContrast)
		}
		for tt, l := range p.tokens {
			check(tt.String(), l, MinCodeContrast)
		}
		if n < 25 {
			t.Fatalf("%s: only %d colours checked", s, n)
		}
	}
}

// paramColour reads the colour of SGR parameters "38;5;N" or "38;2;R;G;B".
func paramColour(p string) (color.Color, bool) {
	f := strings.Split(p, ";")
	switch {
	case len(f) == 3 && f[1] == "5":
		return lipgloss.Color(f[2]), true
	case len(f) == 5 && f[1] == "2":
		r, _ := strconv.Atoi(f[2])
		g, _ := strconv.Atoi(f[3])
		b, _ := strconv.Atoi(f[4])
		return color.RGBA{uint8(r), uint8(g), uint8(b), 0xFF}, true
	}
	return nil, false
}

// TestHighlightedCodeReads: the colours a highlighted code block is
// written in, as the terminal gets them, read at 3:1 or more on a white
// and on a black background (numbers, punctuation, keywords and comments
// were 1.85 to 3.45 on white), in one process whichever style rendered
// code first (glamour kept the first style's code colours for all).
func TestHighlightedCodeReads(t *testing.T) {
	for _, s := range []Style{Dark, Light, Dark} {
		highlightedCodeReads(t, s)
	}
}

// highlightedCodeReads is TestHighlightedCodeReads for style s.
func highlightedCodeReads(t *testing.T, s Style) {
	code := "```go\npackage main\n\n// main says hi\nfunc main() { x := []int{1, 2.5, 0x42}; if x != nil { fmt.Println(\"s\\n\", x) } }\n```\n\nSome `inline code` and a [link](http://example.com).\n"
	sgr := regexp.MustCompile(`\x1b\[([0-9;]*)m`)
	{
		out := strings.Join(Render(code, 100, s), "\n")
		n := 0
		for _, m := range sgr.FindAllStringSubmatch(out, -1) {
			fg, bg, ok := sgrColours(m[1])
			if !ok {
				continue
			}
			if bg == nil {
				bg = s.Background()
			}
			n++
			if r := Contrast(fg, bg); r < MinCodeContrast {
				t.Errorf("%s: %q on %v reads at %.2f:1", s, m[1], bg, r)
			}
		}
		if n < 5 {
			t.Fatalf("%s: only %d colours found in %q", s, n, out)
		}
	}
}

// sgrColours reads the 24-bit foreground and background of an SGR's
// parameters; ok is false when it sets no foreground.
func sgrColours(params string) (fg, bg color.Color, ok bool) {
	p := strings.Split(params, ";")
	for i := 0; i+4 < len(p); i++ {
		if (p[i] == "38" || p[i] == "48") && p[i+1] == "2" {
			r, _ := strconv.Atoi(p[i+2])
			g, _ := strconv.Atoi(p[i+3])
			b, _ := strconv.Atoi(p[i+4])
			c := color.RGBA{uint8(r), uint8(g), uint8(b), 0xFF}
			if p[i] == "38" {
				fg, ok = c, true
			} else {
				bg = c
			}
			i += 4
		}
	}
	return fg, bg, ok
}
