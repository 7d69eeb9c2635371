package style

import (
	"image/color"
	"math"
	"reflect"
	"testing"

	"charm.land/lipgloss/v2"
)

// The backgrounds the palettes are checked against: what a light and a
// dark terminal show behind text that sets no background of its own.
var (
	lightBG color.Color = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
	darkBG  color.Color = color.RGBA{0x00, 0x00, 0x00, 0xFF}
)

// decorations are the styles that draw rules and separators, not text:
// they need the 3:1 of a non-text element (WCAG 1.4.11), not 4.5:1.
func decorations() map[string]bool {
	return map[string]bool{"PanelRule": true, "InputRule": true, "HelpSep": true}
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

// contrast is the WCAG contrast ratio of a and b, 1 to 21.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// isSet reports whether a style's colour is set (not lipgloss.NoColor).
func isSet(c color.Color) bool {
	_, none := c.(lipgloss.NoColor)
	return c != nil && !none
}

// TestPaletteContrast: in both palettes every style's text colour reads at
// 4.5:1 or more against the background it is drawn on (its own, else the
// terminal's), rules and separators at 3:1, the dialog's border at 3:1.
func TestPaletteContrast(t *testing.T) {
	for _, dark := range []bool{false, true} {
		st := DefaultStyles(dark)
		bg := lightBG
		if dark {
			bg = darkBG
		}
		v := reflect.ValueOf(st)
		n := 0
		for i := 0; i < v.NumField(); i++ {
			s, ok := v.Field(i).Interface().(lipgloss.Style)
			if !ok {
				continue
			}
			name := v.Type().Field(i).Name
			fg, back := s.GetForeground(), s.GetBackground()
			if !isSet(back) {
				back = bg
			}
			if bc := s.GetBorderTopForeground(); isSet(bc) {
				if r := contrast(bc, back); r < 3 {
					t.Errorf("dark=%v %s: border %v on %v is %.2f:1, want 3:1", dark, name, bc, back, r)
				}
			}
			if !isSet(fg) {
				continue
			}
			n++
			want := 4.5
			if decorations()[name] {
				want = 3
			}
			if r := contrast(fg, back); r < want {
				t.Errorf("dark=%v %s: %v on %v is %.2f:1, want %.1f:1", dark, name, fg, back, r, want)
			}
		}
		if n < 40 {
			t.Fatalf("dark=%v: only %d styles with a colour checked", dark, n)
		}
	}
}
