package markdown_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/markdown"
)

func TestWrapPlain(t *testing.T) {
	tests := []struct {
		s         string
		limit     int
		want      []string
		lastStart int
	}{
		{"", 10, []string{""}, 0},
		{"short", 10, []string{"short"}, 0},
		{"exactly ten", 11, []string{"exactly ten"}, 0},
		{"one two three", 7, []string{"one two", "three"}, 8},
		{"one   two", 4, []string{"one", "two"}, 6},
		{"    indented code here", 12, []string{"    indented", "code here"}, 13},
		{"abcdefghijkl", 5, []string{"abcde", "fghij", "kl"}, 10},
		{"ab cdefghijkl", 5, []string{"ab", "cdefg", "hijkl"}, 8},
		{"trailing   ", 20, []string{"trailing"}, 0},
		{"世界世界世界", 5, []string{"世界", "世界", "世界"}, 12},
		{"a 世界", 3, []string{"a", "世", "界"}, 5},
		{"a 世界", 4, []string{"a", "世界"}, 2},
		{"x", 0, []string{"x"}, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q/%d", tt.s, tt.limit), func(t *testing.T) {
			got, last := markdown.WrapPlain(tt.s, tt.limit)
			if !slices.Equal(got, tt.want) || last != tt.lastStart {
				t.Errorf("wrapPlain = %q, %d; want %q, %d", got, last, tt.want, tt.lastStart)
			}
			for _, l := range got {
				if w := ansi.StringWidth(l); w > max(tt.limit, 1) && len([]rune(l)) > 1 {
					t.Errorf("line %q is %d cells wide", l, w)
				}
			}
		})
	}
}

// TestWrapPlainIsPrefixStable: wrapping a longer text never changes the
// lines before the last one of a shorter prefix, and re-wrapping from the
// last line's start gives the same result — what the incremental tail
// relies on.
func TestWrapPlainIsPrefixStable(t *testing.T) {
	text := "Streaming  text with   odd spacing, averyveryverylongwordthatmustbecut, 世界 and émojis 🚀 done."
	for _, limit := range []int{1, 3, 7, 12, 30} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			full, _ := markdown.WrapPlain(text, limit)
			for k := 0; k <= len(text); k++ {
				part, last := markdown.WrapPlain(text[:k], limit)
				if stable := part[:len(part)-1]; !slices.Equal(stable, full[:len(stable)]) {
					t.Fatalf("prefix %d: stable lines %q are not a prefix of %q", k, stable, full)
				}
				again, _ := markdown.WrapPlain(text[:k][last:], limit)
				if !slices.Equal(again, part[len(part)-1:]) {
					t.Fatalf("prefix %d: re-wrapping from %d gives %q, want %q", k, last, again, part[len(part)-1:])
				}
			}
		})
	}
}

// TestStreamingTailMatchesFresh: at every point of a stream, the lines of
// the streaming renderer (built incrementally) equal those of a fresh
// renderer given the same text at once.
func TestStreamingTailMatchesFresh(t *testing.T) {
	doc := "Intro.\n\n" +
		strings.Repeat("A long paragraph\twith tabs, 世界 wide text and words that wrap. ", 8) + "\n" +
		"```go\nfunc f() {\n\treturn \"" + strings.Repeat("x", 90) + "\"\n}\n\n// still open"
	pool := markdown.NewPool()
	for _, w := range []int{7, 40} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			streamed := markdown.New(markdown.WithWidth(w), markdown.WithPool(pool))
			for k := 1; k <= len(doc); k++ {
				streamed.Append(doc[k-1 : k])
				fresh := markdown.New(markdown.WithWidth(w), markdown.WithPool(pool))
				fresh.Append(doc[:k])
				got, want := streamed.Lines(), fresh.Lines()
				if !slices.Equal(got, want) {
					t.Fatalf("after %d bytes:\n got %q\nwant %q", k, got, want)
				}
			}
		})
	}
}

func TestControlCharactersNeverReachTheTerminal(t *testing.T) {
	evil := "Clear \x1b[2J screen\x07 and \x1b]0;title\x07 now\x00.\n\n```\n\tcode\x1b[31m\n```\n\nTail \x1b[5m\u009b blink\tx"
	r := markdown.New(markdown.WithStyle(markdown.ASCII))
	r.Append(evil)
	for _, l := range r.Lines() {
		for _, bad := range []string{"\x1b", "\x07", "\x00", "\t", "\u009b"} {
			if strings.Contains(l, bad) {
				t.Errorf("line %q contains %q", l, bad)
			}
		}
	}
	if got := r.Lines(); !slices.Contains(got, "  Tail [5m blink  x") {
		t.Errorf("tail not shown sanitised: %q", got)
	}
}

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a\tb", "a   b"},
		{"\tx\n  \ty", "    x\n    y"},
		{"esc\x1b[1mbold", "escbold"},
		{"osc 52 \x1b]52;c;eA==\x07done", "osc 52 done"},
		{"bidi \u202Eexe.txt", "bidi ⟨U+202E⟩exe.txt"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"c1 \u0085 next", "c1  next"},
		{"keep 世界 é", "keep 世界 é"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := markdown.Sanitize(tt.in); got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
