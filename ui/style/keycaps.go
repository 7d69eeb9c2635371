package style

import "github.com/tick-agent/tick/ui/style/keycap"

// keycapSafe applies f (a wrap) to s as if ansi measured keycaps as the
// terminal draws them: their bases hidden before, shown again after.
func keycapSafe(s string, f func(string) string) string {
	h, ok := keycap.Hide(s)
	if !ok {
		return f(s)
	}
	return keycap.Show(f(h))
}
