package markdown

import (
	"image/color"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"
)

// TestThemeContrast: in Light and Dark every colour of the Markdown
// theme reads against its background: 4.5:1 for prose (headings, links,
// inline code), 3:1 for the code highlighting theme's tokens; and
// glamour's own built-in style is left as it was (its colours are shared).
func TestThemeContrast(t *testing.T) {
	for _, s := range []Style{Light, Dark} {
		before := *styles.DefaultStyles[string(s)].CodeBlock.Chroma.LiteralNumber.Color
		cfg := s.withReadableColours()
		n := 0
		walkPrimitives(reflect.ValueOf(cfg), false, func(p ansi.StylePrimitive, code bool) {
			if p.Color == nil || *p.Color == "" {
				return
			}
			n++
			bg := s.Background()
			if p.BackgroundColor != nil && *p.BackgroundColor != "" {
				bg = lipgloss.Color(*p.BackgroundColor)
			}
			want := MinTextContrast
			if code {
				want = MinCodeContrast
			}
			if r := Contrast(lipgloss.Color(*p.Color), bg); r < want {
				t.Errorf("%s: %s on %v is %.2f:1, want %.1f:1", s, *p.Color, bg, r, want)
			}
		})
		if n < 25 {
			t.Fatalf("%s: only %d colours checked", s, n)
		}
		if after := *styles.DefaultStyles[string(s)].CodeBlock.Chroma.LiteralNumber.Color; after != before {
			t.Fatalf("%s: glamour's built-in style was changed: %s → %s", s, before, after)
		}
	}
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

// walkPrimitives calls f on every StylePrimitive in v; code says it is in
// the highlighting theme.
func walkPrimitives(v reflect.Value, code bool, f func(ansi.StylePrimitive, bool)) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkPrimitives(v.Elem(), code || v.Type().Elem() == reflect.TypeOf(ansi.Chroma{}), f)
		}
	case reflect.Struct:
		if p, ok := v.Interface().(ansi.StylePrimitive); ok {
			f(p, code)
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkPrimitives(v.Field(i), code, f)
			}
		}
	}
}
