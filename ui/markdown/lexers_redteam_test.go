package markdown

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// hostileCode is source a hostile model may put in a code block: one long
// line (or many lines) repeating what opens a token that never closes.
var hostileCode = []struct {
	name, lang, text string
}{
	{"c char of escaped quotes", "c", strings.Repeat(`'\`, hostileSize/8)},
	{"c++ char of escaped quotes", "cpp", strings.Repeat(`'\`, hostileSize/8)},
	{"c++ unclosed raw strings", "cpp", strings.Repeat(`R"x(`, hostileSize/4)},
	{"c++ raw strings' long delimiters", "cpp", strings.Repeat(`R"abcdefghijklmnopqrstuvwxyz)`, hostileSize/29)},
	{"rust unclosed raw strings", "rust", strings.Repeat(`r##"`, hostileSize/4)},
	{"yaml key of spaces", "yaml", "a" + strings.Repeat(" ", hostileSize)},
}

// hostileSize is large enough that a lexer rule taking time quadratic in
// it stalls the test for many minutes (a timeout), small enough that
// linear time is a fraction of a second (on main before the fix the
// raw strings took 9 s each and the character constants 3 s at these
// sizes, growing fourfold with each doubling; after it, 0.02-0.1 s).
const hostileSize = 64 << 10

// TestLexersLinearOnHostileCode tokenises code crafted against the
// lexers' backtracking rules (chroma's core runs on a backtracking regexp
// engine, every rule tried at every position): every one must take time
// linear in its size and give the text back whole. On the rules of before
// (an unclosed raw string or character constant scanned to the line's end
// from every quote, a lazy YAML key racing the spaces before its colon)
// these took minutes to hours; a stall shows as the test's timeout.
func TestLexersLinearOnHostileCode(t *testing.T) {
	for _, tc := range hostileCode {
		t.Run(tc.name, func(t *testing.T) {
			lx := (&highlighter{}).lexer(tc.lang)
			if lx == nil {
				t.Fatalf("no lexer for %s", tc.lang)
			}
			it, err := lx.Tokenise(nil, tc.text)
			if err != nil {
				t.Fatalf("tokenise %s: %v", tc.name, err)
			}
			var b strings.Builder
			for tok := it(); tok != chroma.EOF; tok = it() {
				b.WriteString(tok.Value)
			}
			if got := strings.TrimSuffix(b.String(), "\n"); got != tc.text {
				t.Fatalf("tokens give back %d bytes, want the %d of the code", len(got), len(tc.text))
			}
		})
	}
}

// TestHugeCodeDrawnPlain: a code block (or a long fence's chunk) over
// maxHighlight bytes is drawn in the text colour without running a lexer,
// so a megabyte of code on one line never stalls the chat: ordinary Go
// (highlighted in many colours below the bound) and the hostile inputs of
// TestLexersLinearOnHostileCode grown to a megabyte, every byte of the
// code still drawn.
func TestHugeCodeDrawnPlain(t *testing.T) {
	cases := []struct{ name, lang, text string }{
		{"go on one line", "go", strings.Repeat(`x := "s"; f(42) // c `, (maxHighlight+1)/20+1)},
		{"go on 64 lines", "go", strings.Repeat(strings.Repeat("x := f(42); ", maxHighlight/64/12+1)+"\n", 64)},
		{"c char of escaped quotes", "c", strings.Repeat(`'\`, 1<<19)},
		{"rust unclosed raw strings", "rust", strings.Repeat(`r##"`, 1<<18)},
		{"yaml key of spaces", "yaml", "a" + strings.Repeat(" ", 1<<20)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := strings.Join(Render("```"+tc.lang+"\n"+tc.text+"```\n", 80, Dark), "\n")
			if n := len(colours(out)); n != 1 {
				t.Errorf("%d bytes of %s drawn in %d colours, want 1 (the text colour)", len(tc.text), tc.lang, n)
			}
			want := strings.Count(tc.text, "x") + strings.Count(tc.text, `'`) + strings.Count(tc.text, "#")
			if got := strings.Count(out, "x") + strings.Count(out, `'`) + strings.Count(out, "#"); got != want {
				t.Errorf("the code's marks drawn %d times, want %d", got, want)
			}
		})
	}
}
