package sandbox

import "strings"

// What a secret looks like inside a value, whatever the variable's name:
// a URL's userinfo with a password (scheme://user:secret@, as GitLab's
// CI_REPOSITORY_URL carries its job token), and known token shapes:
// GitHub's (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab's (glpat-,
// glcbt-), Slack's (xoxb-, xoxp-), AWS access key ids (AKIA...),
// OpenAI-style keys (sk-...).
//
// It is matched by hand, not with package regexp: this package is linked
// into the sandbox helper's entry, which must run before any package that
// imports regexp is initialised (see agent/sandbox/entry).

// tokenShape is one known token: its prefix, the characters that may
// follow it and how many at least.
type tokenShape struct {
	prefix   string
	chars    func(byte) bool
	min, max int // max 0: no upper bound
}

// tokenShapes are the known tokens, tried in order at each word start.
var tokenShapes = [...]tokenShape{
	{"ghp_", isAlnum, 20, 0}, {"gho_", isAlnum, 20, 0}, {"ghu_", isAlnum, 20, 0}, {"ghs_", isAlnum, 20, 0}, {"ghr_", isAlnum, 20, 0},
	{"github_pat_", isWord, 20, 0},
	{"glpat-", isTokenChar, 16, 0}, {"glcbt-", isTokenChar, 16, 0},
	{"xoxb-", isAlnumDash, 10, 0}, {"xoxp-", isAlnumDash, 10, 0},
	{"AKIA", isUpperDigit, 16, 16},
	{"sk-", isTokenChar, 16, 0},
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
func isWord(c byte) bool      { return isAlnum(c) || c == '_' }
func isTokenChar(c byte) bool { return isWord(c) || c == '-' }
func isAlnumDash(c byte) bool { return isAlnum(c) || c == '-' }
func isUpperDigit(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// IsSecretValue reports whether an environment variable's value carries a
// secret by its shape (URL credentials, known tokens), whatever its name.
func IsSecretValue(v string) bool { return len(secretShapes(v, 1)) > 0 }

// secretShapes returns up to n (all when n < 0) secret-shaped parts of s,
// leftmost first, not overlapping.
func secretShapes(s string, n int) []string {
	var out []string
	for i := 0; i < len(s) && (n < 0 || len(out) < n); {
		if end := urlCredentialsAt(s, i); end > i {
			out = append(out, s[i:end])
			i = end
			continue
		}
		if end := tokenAt(s, i); end > i {
			out = append(out, s[i:end])
			i = end
			continue
		}
		i++
	}
	return out
}

// urlCredentialsAt returns the end of "scheme://user:secret@" starting at
// i, or i when there is none there.
func urlCredentialsAt(s string, i int) int {
	c := s[i]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return i
	}
	j := i + 1
	for j < len(s) && (isAlnum(s[j]) || s[j] == '+' || s[j] == '.' || s[j] == '-') {
		j++
	}
	if !strings.HasPrefix(s[j:], "://") {
		return i
	}
	j += 3
	colon := -1
	for ; j < len(s); j++ {
		switch c := s[j]; {
		case c == '/' || isSpace(c):
			return i
		case c == '@':
			if colon >= 0 && j > colon+1 {
				return j + 1
			}
			return i
		case c == ':' && colon < 0:
			colon = j
		}
	}
	return i
}

// tokenAt returns the end of a known token starting at i (at a word
// start), or i when there is none there.
func tokenAt(s string, i int) int {
	if i > 0 && isWord(s[i-1]) {
		return i
	}
	for _, t := range tokenShapes {
		if !strings.HasPrefix(s[i:], t.prefix) {
			continue
		}
		j := i + len(t.prefix)
		for j < len(s) && t.chars(s[j]) && (t.max == 0 || j-i-len(t.prefix) < t.max) {
			j++
		}
		if j-i-len(t.prefix) >= t.min {
			return j
		}
	}
	return i
}
