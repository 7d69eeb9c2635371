package style

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/style/keycap"
)

// keycapSafe applies f (a wrap) to s as if ansi measured keycaps as the
// terminal draws them: their bases hidden before, shown again after.
func keycapSafe(s string, f func(string) string) string {
	h, ok := keycap.Hide(s)
	if !ok {
		return f(s)
	}
	return keycap.Show(f(h))
}

// TruncateWidth is ansi.Truncate for the layout: s (styled or not) cut to at
// most w cells as StringWidth counts them, tail ending what was cut.
// ansi.Truncate takes a keycap ("1️⃣") or a digit with VS16 for one cell,
// so a line of them came out a cell over w per keycap, and the frame's
// last cut (render) took the tail off the screen: the user could not see
// that it was cut. s is cut again, shorter by what it went over, until
// it fits, so a cut line always ends in tail.
func TruncateWidth(s string, w int, tail string) string {
	w = max(w, 0)
	t := ansi.Truncate(s, w, tail)
	for k := w; k > 0; {
		over := ansi.StringWidth(t) - w
		if over <= 0 {
			return t
		}
		k -= over
		t = ansi.Truncate(s, max(k, 0), tail)
	}
	return t
}
