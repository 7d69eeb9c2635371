package status

import "strconv"

// Context is the context in use after the last parent call: its
// prompt and answer, the window, and where compaction starts (0: unknown).
type Context struct {
	Used, Window, CompactAt int
	Estimated               bool
}

// ContextText says the context in use: "31k/128k · 24%", and with when
// "· compacts at 102k" (or "· compacts next" once past it).
func ContextText(c Context, when bool) string {
	s := shortTokens(c.Used) + "/" + shortTokens(c.Window) + " · " + strconv.Itoa(percent(c)) + "%"
	if c.Estimated {
		s = "~" + s
	}
	if when && c.CompactAt > 0 {
		if c.Used >= c.CompactAt {
			return s + " · compacts next"
		}
		return s + " · compacts at " + shortTokens(c.CompactAt)
	}
	return s
}

// percent is the share of the window in use, 0 to 999.
func percent(c Context) int {
	if c.Window <= 0 {
		return 0
	}
	return min(c.Used*100/c.Window, 999)
}

// shortTokens shows a token count in at most four cells: 950, 1.5k, 31k,
// 128k, 1.0M.
func shortTokens(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 10_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	case n < 1_000_000:
		return strconv.Itoa(n/1000) + "k"
	default:
		return strconv.FormatFloat(float64(n)/1_000_000, 'f', 1, 64) + "M"
	}
}

// WarnAt is the share of the window from which the status bar
// colours the context (compaction starts at 80%).
const WarnAt = 80
