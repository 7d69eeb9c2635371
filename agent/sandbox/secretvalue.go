package sandbox

import "regexp"

// secretValue matches what a secret looks like inside a value, whatever
// the variable's name: a URL's userinfo with a password
// (scheme://user:secret@, as GitLab's CI_REPOSITORY_URL carries its job
// token), and known token shapes: GitHub's (ghp_, gho_, ghu_, ghs_, ghr_,
// github_pat_), GitLab's (glpat-, glcbt-), Slack's (xoxb-, xoxp-), AWS
// access key ids (AKIA...), OpenAI-style keys (sk-...).
var secretValue = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:[^/\s@]+@|` +
	`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|glcbt-[A-Za-z0-9_-]{16,}|xox[bp]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|sk-[A-Za-z0-9_-]{16,})`)

// IsSecretValue reports whether an environment variable's value carries a
// secret by its shape (see secretValue), whatever its name.
func IsSecretValue(v string) bool { return secretValue.MatchString(v) }

// SecretShapes returns the parts of s that look like secrets by their
// shape (URL userinfo, known tokens), for masking.
func SecretShapes(s string) []string { return secretValue.FindAllString(s, -1) }
