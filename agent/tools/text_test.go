package tools

import (
	"fmt"
	"strings"
	"testing"
)

func TestHeadTail(t *testing.T) {
	var lines strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&lines, "line %03d\n", i) // 9 bytes a line
	}
	data := lines.String()
	tests := []struct {
		name  string
		limit int
		data  string
		want  string
	}{
		{"fits", 1000, "abc\n", "abc\n"},
		{"exactly fits", 900, data, data},
		{"cut at lines", 90, data,
			strings.Join(strings.SplitAfter(data, "\n")[:5], "") +
				"\n... [810 bytes (90 lines) cut from the middle of the output] ...\n\n" +
				strings.Join(strings.SplitAfter(data, "\n")[95:], "")},
		{"no newlines", 10, strings.Repeat("a", 20) + strings.Repeat("b", 20),
			"aaaaa\n\n... [30 bytes (0 lines) cut from the middle of the output] ...\n\nbbbbb"},
	}
	for _, tt := range tests {
		// The result must not depend on how the writes were split.
		for _, chunk := range []int{1, 7, 64, len(tt.data)} {
			t.Run(fmt.Sprintf("%s/chunk %d", tt.name, chunk), func(t *testing.T) {
				h := newHeadTail(tt.limit)
				for s := tt.data; s != ""; {
					k := min(chunk, len(s))
					if n, err := h.Write([]byte(s[:k])); n != k || err != nil {
						t.Fatalf("Write = %d, %v", n, err)
					}
					s = s[k:]
				}
				if got := h.String(); got != tt.want {
					t.Errorf("String() =\n%q\nwant\n%q", got, tt.want)
				}
			})
		}
	}
}

func TestCleanOutput(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "a\tb\n", "a\tb\n"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"CRLF", "a\r\nb\r\n", "a\nb\n"},
		{"progress", "0%\r50%\r100%\ndone\n", "100%\ndone\n"},
		{"colour", "\x1b[1;31mred\x1b[0m", "red"},
		{"OSC title", "\x1b]0;title\x07text", "text"},
		{"OSC with ST", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"control chars", "a\x00b\x07c\x7fd", "abcd"},
		{"escape at the end", "abc\x1b", "abc"},
		{"unicode kept", "héllo → 世界\n", "héllo → 世界\n"},
		{"C1 CSI", "a\u009b2Jb\u009b8mc", "abc"},
		{"C1 OSC 52", "a\u009d52;c;eA==\u0007b", "ab"},
		{"C1 OSC with C1 ST", "a\u009d8;;http://x\u009clink", "alink"},
		{"other C1", "a\u0085b\u0080", "ab"},
		{"raw 0x9b byte", "a\x9b2J", "a\uFFFD2J"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanOutput(tt.in); got != tt.want {
				t.Errorf("cleanOutput(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLooksBinary(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"empty", "", false},
		{"text", "package main\n\nfunc main() {}\n", false},
		{"UTF-8", "héllo wörld ✓\n", false},
		{"latin-1", "caf\xe9 cr\xe8me br\xfbl\xe9e\n", false},
		{"rune cut at the end", "abc\xe2\x82", false},
		{"NUL", "abc\x00def", true},
		{"noise", "\xff\xfe\xfd\x01\x02\x03abc", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := looksBinary([]byte(tt.in)); got != tt.want {
				t.Errorf("looksBinary(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}
