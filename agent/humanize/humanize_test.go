package humanize

import (
	"math"
	"testing"
)

func TestBytes(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"}, {100, "100 bytes"}, {1023, "1023 bytes"}, {1024, "1 KiB"}, {2000, "2.0 KiB"},
		{512 << 10, "512 KiB"}, {1 << 20, "1 MiB"}, {3<<20 + 1<<19, "3.5 MiB"}, {32 << 20, "32 MiB"}, {2 << 30, "2 GiB"},
	}
	for _, tt := range tests {
		if got := Bytes(tt.n); got != tt.want {
			t.Errorf("Bytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{512, "512 bytes"}, {1024, "1.0 KiB"}, {1434, "1.4 KiB"}, {12595, "12.3 KiB"}, {4 << 20, "4.0 MiB"}, {3 << 30, "3.0 GiB"},
	}
	for _, tt := range tests {
		if got := Size(tt.n); got != tt.want {
			t.Errorf("Size(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{{950, "950"}, {12_345, "12.3k"}, {1_234_567, "1.2M"}}
	for _, tt := range tests {
		if got := Tokens(tt.n); got != tt.want {
			t.Errorf("Tokens(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestCost(t *testing.T) {
	tests := []struct {
		c    float64
		want string
	}{
		{12.345, "$12.35"}, {0.0123, "$0.0123"}, {0.000042, "$0.000042"}, {0.0004, "$0.0004"}, {0, "$0"},
		{-1, "$?"}, {math.NaN(), "$?"}, {math.Inf(1), "$?"},
	}
	for _, tt := range tests {
		if got := Cost(tt.c); got != tt.want {
			t.Errorf("Cost(%v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestDigits(t *testing.T) {
	for _, tt := range []struct {
		in   int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {1234567, "1,234,567"}, {-12345, "-12,345"}} {
		t.Run(tt.want, func(t *testing.T) {
			if got := Digits(tt.in); got != tt.want {
				t.Errorf("Digits(%d) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
