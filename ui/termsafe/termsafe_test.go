package termsafe_test

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tick-agent/tick/ui/termsafe"
)

// Attacks is a set of hostile strings a model or a server may send, each
// with what must not survive.
var attacks = []struct {
	name, in, want string
}{
	{"plain", "hello\tworld\nbye", "hello\tworld\nbye"},
	{"osc 52 clipboard, BEL", "a\x1b]52;c;cm0gLXJmIH4=\x07b", "ab"},
	{"osc 52 clipboard, ST", "a\x1b]52;c;cm0gLXJmIH4=\x1b\\b", "ab"},
	{"osc 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
	{"clear screen", "x\x1b[2Jy\x1b[H", "xy"},
	{"conceal", "run \x1b[8mrm -rf ~\x1b[0m ok", "run rm -rf ~ ok"},
	{"c1 csi", "a\u009b2Jb", "ab"},
	{"c1 osc with c1 st", "a\u009d52;c;eA==\u009cb", "ab"},
	{"c1 others dropped", "a\u0085b\u0090", "ab"},
	{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
	{"apc", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
	{"two-byte esc", "a\x1bcb\x1b7c", "abc"},
	{"nF esc", "a\x1b(Bb", "ab"},
	{"lone esc at end", "a\x1b", "a"},
	{"unterminated osc keeps the text", "a\x1b]0;title", "a0;title"},
	{"c0 and del", "a\x00b\x07c\x08d\x7fe\rf", "abcdef"},
	{"crlf", "a\r\nb", "a\nb"},
	{"bidi override", "ls \u202Etxt.exe", "ls ⟨U+202E⟩txt.exe"},
	{"bidi isolates", "\u2066a\u2069", "⟨U+2066⟩a⟨U+2069⟩"},
	{"zero width", "r\u200Bm", "r⟨U+200B⟩m"},
	{"zwj between letters", "g\u200Dit", "g⟨U+200D⟩it"},
	{"zwj in an emoji sequence", "👨\u200D👩", "👨\u200D👩"},
	{"bom and tags", "\uFEFFa\U000E0041", "⟨U+FEFF⟩a⟨U+E0041⟩"},
	{"line separator", "a\u2028b", "a⟨U+2028⟩b"},
	{"invalid utf-8", "a\xffb\x9b2J", "a\uFFFDb\uFFFD2J"},
	{"hangul fillers", "a\u3164b\u115F\u1160c\uFFA0", "a⟨U+3164⟩b⟨U+115F⟩⟨U+1160⟩c⟨U+FFA0⟩"},
	{"braille blank", "rm\u2800-rf", "rm⟨U+2800⟩-rf"},
	{"grapheme joiner", "r\u034Fm", "r⟨U+034F⟩m"},
	{"variation selectors on letters", "a\uFE00b\uFE0Fc\U000E0100", "a⟨U+FE00⟩b⟨U+FE0F⟩c⟨U+E0100⟩"},
	{"emoji presentation kept", "❤\uFE0F 1\uFE0F\u20E3 🏳\uFE0F\u200D🌈 ↔\uFE0F ‼\uFE0F ℹ\uFE0F ©\uFE0E", "❤\uFE0F 1\uFE0F\u20E3 🏳\uFE0F\u200D🌈 ↔\uFE0F ‼\uFE0F ℹ\uFE0F ©\uFE0E"},
	{"selectors after letters and spaces", "é\uFE0F \uFE0E", "é⟨U+FE0F⟩ ⟨U+FE0E⟩"},
	{"a run of selectors after an emoji", "❤\uFE0F\uFE0F", "❤\uFE0F⟨U+FE0F⟩"},
	{"unicode text kept", "café – 日本語 ✓", "café – 日本語 ✓"},
}

func TestText(t *testing.T) {
	for _, tc := range attacks {
		t.Run(tc.name, func(t *testing.T) {
			got := termsafe.Text(tc.in)
			if got != tc.want {
				t.Fatalf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if err := Check(got); err != nil {
				t.Fatal(err)
			}
			if !termsafe.Safe(got) {
				t.Fatalf("Safe(%q) = false for Text's own output", got)
			}
			if termsafe.Text(got) != got {
				t.Fatalf("Text is not idempotent on %q", got)
			}
		})
	}
}

func TestLine(t *testing.T) {
	got := termsafe.Line("  echo\x1b[2J hi\n\tthere \u202E ")
	if want := "echo hi there ⟨U+202E⟩"; got != want {
		t.Fatalf("Line = %q, want %q", got, want)
	}
}

func TestAppendRune(t *testing.T) {
	var b []byte
	prev := rune(0)
	for _, r := range "a\x1b[8mb\u009b\u202Ec\u200D" {
		b = termsafe.AppendRune(b, prev, r)
		prev = r
	}
	if got, want := string(b), "a[8mb⟨U+202E⟩c⟨U+200D⟩"; got != want {
		t.Fatalf("AppendRune gave %q, want %q", got, want)
	}
}

type inner struct {
	Text string
	List []string
}

type event struct {
	Name   string
	Inner  inner
	Any    any
	Err    error
	Map    map[string]string
	Ch     chan int
	hidden string
	N      int
}

func TestStrings(t *testing.T) {
	cause := fs.ErrNotExist
	ch := make(chan int)
	in := event{
		Name:   "a\x1b]52;c;eA==\x07b",
		Inner:  inner{Text: "\u202Ex", List: []string{"ok", "\x1b[2J"}},
		Any:    inner{Text: "\u009b31m"},
		Err:    fmt.Errorf("server said \x1b]8;;x\x07hi: %w", cause),
		Map:    map[string]string{"k": "\x1b[8mv"},
		Ch:     ch,
		hidden: "\x1b[2J",
		N:      7,
	}
	orig := in.Inner.List[1]
	out := termsafe.Strings(in)
	if out.Name != "ab" || out.Inner.Text != "⟨U+202E⟩x" || out.Inner.List[1] != "" || out.Map["k"] != "v" {
		t.Fatalf("strings not cleaned: %+v", out)
	}
	if got := out.Any.(inner).Text; got != "" {
		t.Fatalf("string inside an interface = %q", got)
	}
	if out.Err.Error() != "server said hi: file does not exist" || !errors.Is(out.Err, cause) {
		t.Fatalf("error = %q (Is cause %v)", out.Err, errors.Is(out.Err, cause))
	}
	if out.Ch != ch || out.N != 7 || out.hidden != "\x1b[2J" {
		t.Fatalf("other fields changed: %+v", out)
	}
	if in.Inner.List[1] != orig {
		t.Fatal("Strings modified its argument's slice")
	}
	var iface fmt.Stringer = stringer{S: "\x1b[2Jx"}
	if got := termsafe.Strings(iface).String(); got != "x" {
		t.Fatalf("through an interface type parameter: %q", got)
	}
}

type stringer struct{ S string }

func (s stringer) String() string { return s.S }

// Check reports an error when s holds anything a terminal would act on:
// an ESC, a C0 control other than newline and tab, a C1 control, invalid
// UTF-8, or a raw bidi control.
func Check(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("invalid UTF-8 in %q", s)
	}
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return fmt.Errorf("control character %U at %d in %q", r, i, s)
		case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
			return fmt.Errorf("bidi control %U at %d in %q", r, i, s)
		}
	}
	if strings.Contains(s, "\x1b") {
		return fmt.Errorf("ESC in %q", s)
	}
	return nil
}

func FuzzText(f *testing.F) {
	for _, tc := range attacks {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := termsafe.Text(s)
		if err := Check(got); err != nil {
			t.Fatal(err)
		}
		if termsafe.Text(got) != got {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, got, termsafe.Text(got))
		}
	})
}
