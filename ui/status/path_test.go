package status

import (
	"strings"
	"testing"
)

func TestPathAlts(t *testing.T) {
	tests := []struct {
		path string
		want []string
	}{
		{"~/src/github.com/me/proj", []string{"~/…/proj", "proj"}},
		{"/tmp/a/b/proj", []string{"/…/proj", "proj"}},
		{"~/proj", []string{"proj"}},
		{"~", nil},
		{"/", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got := pathAlts(tt.path, "…")
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("pathAlts(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}
