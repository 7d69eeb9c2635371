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
