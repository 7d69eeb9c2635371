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

// Theme decides the styles' background from a theme setting (TICK_THEME,
// else the config's theme): "light" and "dark" fix it (ask false: the
// terminal is not asked); "auto", "" or anything else guesses from
// COLORFGBG (GuessDark) and asks the terminal (ask true).
func Theme(setting, colorFGBG string) (dark, ask bool) {
	switch strings.ToLower(strings.TrimSpace(setting)) {
	case "light":
		return false, false
	case "dark":
		return true, false
	}
	return GuessDark(colorFGBG), true
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
