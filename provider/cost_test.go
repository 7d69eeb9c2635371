package provider

import "testing"

// TestServerCost reads usage.cost and ignores what is not a cost.
func TestServerCost(t *testing.T) {
	for _, tt := range []struct {
		raw  string
		want float64 // -1: nil
	}{
		{`{"usage":{"prompt_tokens":1,"cost":0.0012}}`, 0.0012},
		{`{"usage":{"prompt_tokens":1}}`, -1},
		{`{"usage":{"cost":-3}}`, -1},
		{`{"usage":{"cost":"free"}}`, -1},
		{`{"choices":[]}`, -1},
	} {
		got := serverCost([]byte(tt.raw))
		if (got == nil) != (tt.want < 0) || (got != nil && *got != tt.want) {
			t.Errorf("serverCost(%s) = %v, want %v", tt.raw, got, tt.want)
		}
	}
}
