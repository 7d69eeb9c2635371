package markdown

import (
	"image/color"
	"math"
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
