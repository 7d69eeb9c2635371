package ui

import (
	"strconv"
	"strings"
)

// GuessDark is the background the first frame is drawn for: what
// COLORFGBG (colorFGBG) says, else dark. The app then asks the terminal
// itself without waiting for the answer (ui.Config.AskBackground), and
// restyles when the answer differs.
func GuessDark(colorFGBG string) bool {
	if dark, ok := parseColorFGBG(colorFGBG); ok {
		return dark
	}
	return true
}

// parseColorFGBG reads COLORFGBG ("fg;bg" or "fg;default;bg" in ANSI colour
// numbers, set by rxvt, Konsole and others): backgrounds 7 and 9-15 are
// light.
func parseColorFGBG(v string) (dark, ok bool) {
	if v == "" {
		return false, false
	}
	parts := strings.Split(v, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil || bg < 0 || bg > 15 {
		return false, false
	}
	return !(bg == 7 || bg >= 9), true
}
