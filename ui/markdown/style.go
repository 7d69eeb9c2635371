package markdown

import (
	"fmt"
	"strings"
)

// Style names a rendering style. It is chosen once at start-up; Renderers
// never detect the terminal background themselves. An unknown name renders
// as Dark.
type Style string

// The styles. tick itself uses Dark and Light (chosen by the terminal's
// background); ASCII and NoTTY draw no colours.
const (
	Dark  Style = "dark"
	Light Style = "light"
	// ASCII uses no colours; marks stand for emphasis (*, **, ~~, `) and
	// headings keep their "#" prefixes.
	ASCII Style = "ascii"
	// NoTTY uses no colours (for plain output); it looks like ASCII.
	NoTTY Style = "notty"
)

// alias returns the style another well-known Markdown style's name
// (glamour's, which tick used before it rendered Markdown itself) renders
// as: the dark ones as Dark. No configuration names a style today;
// ParseStyle accepts them so that a name that worked keeps working.
func alias(name string) (Style, bool) {
	switch name {
	case "dracula", "tokyo-night", "tokyo_night", "pink":
		return Dark, true
	}
	return "", false
}

// ParseStyle returns the Style called name (case-insensitive: dark, light,
// ascii, notty, or dracula, tokyo-night and pink, which render as Dark), or
// an error naming the valid values.
func ParseStyle(name string) (Style, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch s := Style(n); s {
	case Dark, Light, ASCII, NoTTY:
		return s, nil
	}
	if _, ok := alias(n); ok {
		return Style(n), nil
	}
	return Dark, fmt.Errorf("parse markdown style %q: unknown style (valid: ascii, dark, dracula, light, notty, pink, tokyo-night)", name)
}

// resolved returns the built-in style s renders as: s itself, the style
// an alias stands for, or Dark.
func (s Style) resolved() Style {
	switch s {
	case Dark, Light, ASCII, NoTTY:
		return s
	}
	if a, ok := alias(string(s)); ok {
		return a
	}
	return Dark
}

// docMargin is the margin every style puts left (and right) of the text.
const docMargin = 2

// margin is the left (and right) margin around rendered text; the plain
// tail is indented by the same amount so text does not shift when its
// block is rendered.
func (s Style) margin() int { return docMargin }
