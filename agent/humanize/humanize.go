// Package humanize writes sizes, token counts and costs the way a person
// reads them. It is the one place provider, agent and ui format them, so
// a limit, a file's size or a turn's cost reads the same in an error for
// the model, the TUI and -p. It imports nothing of the project.
package humanize

import (
	"math"
	"strconv"
	"strings"
)

// unit is a binary unit of bytes.
type unit struct {
	name string
	size int64
}

// binary lists the binary units, largest first.
func binary() [3]unit { return [3]unit{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} }

// Bytes writes a byte count, a limit above all: "100 bytes", "512 KiB",
// "3.5 MiB" (one decimal only when the count is not a whole number of the
// unit).
func Bytes(n int64) string {
	for _, u := range binary() {
		if n < u.size {
			continue
		}
		if n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + " " + u.name
		}
		return strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64) + " " + u.name
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Size writes a measured size, always with one decimal above a KiB:
// "512 bytes", "12.3 KiB", "4.0 MiB".
func Size(n int64) string {
	for _, u := range binary() {
		if n >= u.size {
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Digits writes an exact count with a comma between groups of three
// digits: 3145728 -> "3,145,728", -12345 -> "-12,345".
func Digits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return neg + string(out)
}

// Tokens writes a token count: 950, 12.3k, 1.2M.
func Tokens(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 1_000_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	default:
		return strconv.FormatFloat(float64(n)/1_000_000, 'f', 1, 64) + "M"
	}
}

// Cost writes a cost in dollars with enough digits for a small figure:
// $12.34, $0.0123, $0.000042. A negative or non-finite figure is "$?".
func Cost(c float64) string {
	switch {
	case c < 0 || math.IsNaN(c) || math.IsInf(c, 0):
		return "$?"
	case c >= 1:
		return "$" + strconv.FormatFloat(c, 'f', 2, 64)
	case c >= 0.001:
		return "$" + strconv.FormatFloat(c, 'f', 4, 64)
	case c == 0:
		return "$0"
	default: // two significant digits: $0.0004, $0.000042
		digits := min(1-int(math.Floor(math.Log10(c))), 10)
		return "$" + strings.TrimRight(strings.TrimRight(strconv.FormatFloat(c, 'f', digits, 64), "0"), ".")
	}
}
