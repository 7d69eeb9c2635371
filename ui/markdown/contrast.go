package markdown

import (
	"fmt"
	"image/color"
	"math"
	"reflect"

	"charm.land/glamour/v2/ansi"
	"charm.land/lipgloss/v2"
)

// The least contrast against the background: prose (links, headings,
// inline code) as any text, code tokens a little less (WCAG's large-text
// and non-text figure), so that a highlighting theme keeps its hues.
const (
	MinTextContrast = 4.5
	MinCodeContrast = 3.0
)

// Background is the background a Light or Dark style is drawn on when
// an element sets none: white or black, the far ends of what terminals
// use.
func (s Style) Background() color.Color {
	if s.resolved() == Light {
		return color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
	}
	return color.RGBA{0, 0, 0, 0xFF}
}

// readable returns cfg with every colour too faint against bg (or the
// element's own background) darkened or lightened until it reads:
// MinCodeContrast for the highlighting theme's tokens, MinTextContrast
// for the rest. Shared pointers of glamour's built-in styles are never
// written through: a changed part is a new value.
func readable(cfg ansi.StyleConfig, bg color.Color) ansi.StyleConfig {
	v := reflect.ValueOf(&cfg).Elem()
	fixColours(v, bg, false)
	return cfg
}

// fixColours walks v (a struct or pointer to one) and fixes the colour of
// every StylePrimitive in it; code says that v is in the highlighting
// theme.
func fixColours(v reflect.Value, bg color.Color, code bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct || !v.CanSet() {
			return
		}
		cp := reflect.New(v.Elem().Type()) // copy: the pointee is glamour's
		cp.Elem().Set(v.Elem())
		v.Set(cp)
		fixColours(cp.Elem(), bg, code || v.Type().Elem() == reflect.TypeOf(ansi.Chroma{}))
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(ansi.StylePrimitive{}) {
			fixPrimitive(v.Addr().Interface().(*ansi.StylePrimitive), bg, code)
		}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() && (f.Kind() == reflect.Struct || f.Kind() == reflect.Pointer) {
				fixColours(f, bg, code)
			}
		}
	}
}

// fixPrimitive makes p's colour read against its own background, else bg.
func fixPrimitive(p *ansi.StylePrimitive, bg color.Color, code bool) {
	if p.Color == nil || *p.Color == "" {
		return
	}
	if p.BackgroundColor != nil && *p.BackgroundColor != "" {
		bg = lipgloss.Color(*p.BackgroundColor)
	}
	want := MinTextContrast
	if code {
		want = MinCodeContrast
	}
	fg := lipgloss.Color(*p.Color)
	if Contrast(fg, bg) >= want {
		return
	}
	fixed := hex(towards(fg, bg, want))
	p.Color = &fixed
}

// towards moves fg away from bg (towards black on a light background,
// white on a dark one) in small steps until it reaches the contrast want.
func towards(fg, bg color.Color, want float64) color.Color {
	r, g, b, _ := fg.RGBA()
	end := 0.0
	if luminance(bg) < 0.18 {
		end = 0xFFFF
	}
	for t := 0.0; t <= 1; t += 0.02 {
		mix := func(c uint32) uint16 { return uint16(math.Round(float64(c) + (end-float64(c))*t)) }
		c := color.RGBA64{mix(r), mix(g), mix(b), 0xFFFF}
		if Contrast(c, bg) >= want {
			return c
		}
	}
	if end == 0 {
		return color.Black
	}
	return color.White
}

// hex writes c as "#RRGGBB".
func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// luminance is the relative luminance of c (WCAG 2).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xFFFF
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// Contrast is the WCAG 2 contrast ratio of a and b, from 1 to 21.
func Contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}
