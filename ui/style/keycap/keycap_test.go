package keycap

import "testing"

// TestHideShow: Hide swaps exactly the bases of keycaps and digits with
// VS16, Show gives the text back byte for byte; styled text and text that
// holds a stand-in already are left alone.
func TestHideShow(t *testing.T) {
	for _, tt := range []struct {
		in      string
		swapped bool
	}{
		{"step 1\ufe0f\u20e3 then #\ufe0f\u20e3 and *\ufe0f\u20e3, 7\ufe0f", true},
		{"plain 1\u20e3 and a\ufe0f", false},          // no VS16 after a keycap base
		{"\x1b[31m1\ufe0f\u20e3\x1b[0m", false},       // styled
		{"\U000f0031\ufe0f and 2\ufe0f\u20e3", false}, // a stand-in already
		{"no emoji at all", false},
	} {
		h, ok := Hide(tt.in)
		if ok != tt.swapped {
			t.Errorf("Hide(%q) swapped = %v, want %v", tt.in, ok, tt.swapped)
		}
		if !ok && h != tt.in {
			t.Errorf("Hide(%q) changed what it did not swap: %q", tt.in, h)
		}
		if back := Show(h); ok && back != tt.in {
			t.Errorf("Show(Hide(%q)) = %q", tt.in, back)
		}
	}
}
