package markdown

import (
	"image/color"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
)

// attr is a look ready to be written: SGR parameters of its colours
// ("38;5;39", "48;2;55;55;55"; "" for none) and its attributes.
type attr struct {
	fg, bg                          string
	bold, italic, underline, strike bool
}

// over returns a with what b sets laid over it (b's colours where it has
// them, a's attributes and b's).
func (a attr) over(b attr) attr {
	if b.fg != "" {
		a.fg = b.fg
	}
	if b.bg != "" {
		a.bg = b.bg
	}
	a.bold = a.bold || b.bold
	a.italic = a.italic || b.italic
	a.underline = a.underline || b.underline
	a.strike = a.strike || b.strike
	return a
}

// sgr returns the escape sequence that turns a on, "" when a is plain.
func (a attr) sgr() string {
	if a == (attr{}) {
		return ""
	}
	var b strings.Builder
	b.WriteString("\x1b[")
	sep := func() {
		if b.Len() > 2 {
			b.WriteByte(';')
		}
	}
	for _, p := range []string{a.fg, a.bg} {
		if p != "" {
			sep()
			b.WriteString(p)
		}
	}
	for _, f := range []struct {
		on   bool
		code string
	}{{a.bold, "1"}, {a.italic, "3"}, {a.underline, "4"}, {a.strike, "9"}} {
		if f.on {
			sep()
			b.WriteString(f.code)
		}
	}
	b.WriteByte('m')
	return b.String()
}

// theme is a style's palette made ready to draw: every look an attr, each
// colour checked against the background it is drawn on (readable).
type theme struct {
	style Style
	p     palette

	heading, h1, h6                  attr
	emph, strong, strike, code       attr
	link, linkText, image, imageText attr
	rule                             attr
	tokens                           map[chroma.TokenType]attr // nil: no highlighting
}

// newTheme builds s's theme. Light and Dark make every colour readable
// on Background: MinTextContrast for prose, MinCodeContrast for code
// tokens; the other styles have no colours.
func newTheme(s Style) *theme {
	s = s.resolved()
	t := &theme{style: s, p: paletteFor(s)}
	bg := s.Background()
	mk := func(l look, want float64) attr { return makeAttr(l, bg, want) }
	t.heading = mk(t.p.heading, MinTextContrast)
	t.h1 = mk(t.p.h1, MinTextContrast)
	t.h6 = mk(t.p.h6, MinTextContrast)
	t.emph, t.strong, t.strike = mk(t.p.emph, MinTextContrast), mk(t.p.strong, MinTextContrast), mk(t.p.strike, MinTextContrast)
	t.code = mk(t.p.code, MinTextContrast)
	t.link, t.linkText = mk(t.p.link, MinTextContrast), mk(t.p.linkText, MinTextContrast)
	t.image, t.imageText = mk(t.p.image, MinTextContrast), mk(t.p.imageText, MinTextContrast)
	t.rule = mk(t.p.rule, MinTextContrast)
	if t.p.tokens != nil {
		t.tokens = make(map[chroma.TokenType]attr, len(t.p.tokens))
		for k, l := range t.p.tokens {
			t.tokens[k] = mk(l, MinCodeContrast)
		}
	}
	return t
}

// token returns the attr of a code token of type tt: its own, else its
// sub-category's, its category's, or plain text's (as chroma's styles
// inherit).
func (t *theme) token(tt chroma.TokenType) attr {
	for _, k := range []chroma.TokenType{tt, tt.SubCategory(), tt.Category(), chroma.Text} {
		if a, ok := t.tokens[k]; ok {
			return a
		}
	}
	return attr{}
}

// makeAttr returns l as an attr, its foreground made readable (want) on
// its own background, else on bg.
func makeAttr(l look, bg color.Color, want float64) attr {
	a := attr{bold: l.bold, italic: l.italic, underline: l.underline, strike: l.strike}
	if l.bg != "" {
		a.bg = colourParam("48", l.bg, nil)
		bg = lipgloss.Color(l.bg)
	}
	if l.fg != "" {
		fg := lipgloss.Color(l.fg)
		if Contrast(fg, bg) < want {
			a.fg = "38;2;" + rgb(towards(fg, bg, want))
		} else {
			a.fg = colourParam("38", l.fg, fg)
		}
	}
	return a
}

// colourParam writes the colour c (as lipgloss.Color reads it; parsed
// already when known) as SGR parameters after kind (38 or 48): "5;N" for
// a 256-colour index, "2;R;G;B" otherwise.
func colourParam(kind, c string, parsed color.Color) string {
	if n, err := strconv.Atoi(c); err == nil && n >= 0 && n < 256 {
		return kind + ";5;" + c
	}
	if parsed == nil {
		parsed = lipgloss.Color(c)
	}
	return kind + ";2;" + rgb(parsed)
}

// rgb writes c as "R;G;B".
func rgb(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return strconv.Itoa(int(r>>8)) + ";" + strconv.Itoa(int(g>>8)) + ";" + strconv.Itoa(int(b>>8))
}
