package sandbox

import (
	"strings"
	"testing"
)

// TestEndsBuffer: the buffer of Cmd.Output's standard error keeps the
// start and the end of what was written, whatever its size, in writes of
// any size.
func TestEndsBuffer(t *testing.T) {
	for _, tt := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"empty", nil, ""},
		{"fits", []string{"ab", "cd"}, "abcd"},
		{"fills both", []string{"abcdefgh"}, "abcdefgh"},
		{"drops the middle", []string{"abcd", "efgh", "ijkl"}, "abcd\n... omitting 4 bytes ...\nijkl"},
		{"one big write", []string{"abcdefghijklmn"}, "abcd\n... omitting 6 bytes ...\nklmn"},
		{"many small writes", strings.Split("abcdefghijklmn", ""), "abcd\n... omitting 6 bytes ...\nklmn"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := &endsBuffer{n: 4}
			for _, w := range tt.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if got := string(b.Bytes()); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if len(b.head) > 4 || len(b.tail) > 4 {
				t.Errorf("kept %d and %d bytes, more than 4", len(b.head), len(b.tail))
			}
		})
	}
}
