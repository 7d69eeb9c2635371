package app

import (
	"runtime"
	"testing"
)

func TestTUIProcs(t *testing.T) {
	orig := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(orig)
	tests := []struct {
		env  string
		want int
	}{
		{"", 1},         // the app's default
		{"4", orig + 1}, // the user's choice stays
	}
	for _, tt := range tests {
		runtime.GOMAXPROCS(orig + 1)
		if prev := tuiProcs(tt.env); prev != orig+1 {
			t.Errorf("env %q: previous setting %d, want %d", tt.env, prev, orig+1)
		}
		if got := runtime.GOMAXPROCS(0); got != tt.want {
			t.Errorf("env %q: GOMAXPROCS %d, want %d", tt.env, got, tt.want)
		}
	}
}
