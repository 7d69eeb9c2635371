package style

import (
	"image/color"
	"reflect"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/tick-agent/tick/ui/markdown"
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
				if r := markdown.Contrast(bc, back); r < 3 {
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
			if r := markdown.Contrast(fg, back); r < want {
				t.Errorf("dark=%v %s: %v on %v is %.2f:1, want %.1f:1", dark, name, fg, back, r, want)
			}
		}
		if n < 40 {
			t.Fatalf("dark=%v: only %d styles with a colour checked", dark, n)
		}
	}
}
