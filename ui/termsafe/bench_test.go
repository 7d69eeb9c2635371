package termsafe_test

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/ui/termsafe"
)

// benchText is 64 KiB of tool output mixing ASCII, accented and CJK
// letters, emoji and one escape sequence per line.
var benchText = strings.Repeat("go: downloading café 日本語 ✓ 👨\u200D👩 ❤\uFE0F \x1b[32mok\x1b[0m\n", 1024)

func BenchmarkText(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		termsafe.Text(benchText)
	}
}

func BenchmarkSafe(b *testing.B) {
	clean := termsafe.Text(benchText)
	b.SetBytes(int64(len(clean)))
	for b.Loop() {
		termsafe.Safe(clean)
	}
}
