package main

import "testing"

// TestBackground checks the parsing of the terminal's colour answers.
func TestBackground(t *testing.T) {
	tests := []struct {
		name     string
		reply    string
		dark, ok bool
	}{
		{"black, BEL", "\x1b]11;rgb:0000/0000/0000\x07\x1b[?62;c", true, true},
		{"white, ST", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?1;2c", false, true},
		{"two digits", "\x1b]11;rgb:1e/1e/2e\x07", true, true},
		{"solarized light", "\x1b]11;rgb:fdfd/f6f6/e3e3\x07", false, true},
		{"rgba", "\x1b]11;rgba:ffff/ffff/ffff/ffff\x07", false, true},
		{"no OSC 11 support", "\x1b[?62;c", false, false},
		{"garbage", "\x1b]11;rgb:zz/00/00\x07", false, false},
		{"nothing", "", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dark, ok := parseOSC11([]byte(tc.reply))
			if dark != tc.dark || ok != tc.ok {
				t.Errorf("parseOSC11 = %v, %v; want %v, %v", dark, ok, tc.dark, tc.ok)
			}
		})
	}
	fgbg := []struct {
		v        string
		dark, ok bool
	}{{"15;0", true, true}, {"0;15", false, true}, {"0;default;7", false, true}, {"", false, false}, {"x", false, false}}
	for _, tc := range fgbg {
		if dark, ok := parseColorFGBG(tc.v); dark != tc.dark || ok != tc.ok {
			t.Errorf("parseColorFGBG(%q) = %v, %v; want %v, %v", tc.v, dark, ok, tc.dark, tc.ok)
		}
	}
}
