package ui

import "testing"

// TestGuessDark checks the first frame's guess of the background from
// COLORFGBG.
func TestGuessDark(t *testing.T) {
	tests := []struct {
		v    string
		dark bool
	}{{"15;0", true}, {"0;15", false}, {"0;default;7", false}, {"0;8", true}, {"", true}, {"x", true}, {"0;99", true}}
	for _, tc := range tests {
		if got := GuessDark(tc.v); got != tc.dark {
			t.Errorf("GuessDark(%q) = %v; want %v", tc.v, got, tc.dark)
		}
	}
}

// TestTheme: "light" and "dark" fix the styles and ask the terminal
// nothing; "auto", "" and an unknown word guess from COLORFGBG and ask.
func TestTheme(t *testing.T) {
	for _, tt := range []struct {
		setting, fgbg string
		dark, ask     bool
	}{
		{"light", "15;0", false, false},
		{" Dark ", "0;15", true, false},
		{"auto", "0;15", false, true},
		{"", "", true, true},
		{"sepia", "15;0", true, true},
	} {
		if dark, ask := Theme(tt.setting, tt.fgbg); dark != tt.dark || ask != tt.ask {
			t.Errorf("Theme(%q, %q) = %v, %v; want %v, %v", tt.setting, tt.fgbg, dark, ask, tt.dark, tt.ask)
		}
	}
}
