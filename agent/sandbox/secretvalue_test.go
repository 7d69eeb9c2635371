package sandbox

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// secretValueRE is the rule secretShapes follows, as a regular expression
// (the package itself may not import regexp: see secretvalue.go).
var secretValueRE = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:[^/\s@]+@|` +
	`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|glcbt-[A-Za-z0-9_-]{16,}|xox[bp]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|sk-[A-Za-z0-9_-]{16,})`)

// TestSecretShapesMatchTheRule: the hand-written matcher finds what the
// regular expression finds, on the shapes and on random text made of
// their pieces.
func TestSecretShapesMatchTheRule(t *testing.T) {
	cases := []string{
		"https://gitlab-ci-token:glcbt-64_abcdefghijklmnop@gitlab.example.com/group/repo.git",
		"git+ssh://user:pa:ss@host", "http://user@host", "http://:x@host", "http://u:@host", "1https://u:p@h",
		"x ghp_abcdefghijklmnopqrstuvwxyz0123 y", "_ghp_abcdefghijklmnopqrstuvwxyz", "github_pat_11ABCDEFG_0123456789abcdefghij",
		"AKIAABCDEFGHIJKLMNOPQRST", "AKIAabc", "sk-proj-abcdefghijklmnop1234", "xoxb-1234-5678-abcdef", "token=sk-short",
		"", "plain text", "a://b:c@d e://f:g@h",
	}
	pieces := []string{"https", "://", "u", ":", "p", "@", "/", " ", "ghp_", "github_pat_", "glpat-", "glcbt-", "xoxb-", "xoxp-", "AKIA", "sk-", "A", "z", "0", "_", "-", "\t", "ABCDEFGHIJKLMNOP", "abcdefghijklmnopqrst"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		want := secretValueRE.FindAllString(s, -1)
		got := secretShapes(s, -1)
		if len(want) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("secretShapes(%q) = %q, the rule finds %q", s, got, want)
		}
		if IsSecretValue(s) != (len(want) > 0) {
			t.Fatalf("IsSecretValue(%q) = %v", s, !(len(want) > 0))
		}
	}
}
