package sandbox

import (
	"strings"
)

// secretWords mark a variable as a secret when its name contains one of
// them, in any case.
var secretWords = [...]string{"KEY", "TOKEN", "SECRET", "PASSWORD"}

// IsSecretName reports whether an environment variable's name looks like it
// holds a secret: it contains KEY, TOKEN, SECRET or PASSWORD in any case.
func IsSecretName(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range secretWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// ScrubEnv returns environ ("NAME=value" entries) without the variables a
// command must not see: those named in drop (the API key tick itself uses)
// and every variable whose name looks like a secret (see IsSecretName).
// A variable named in allow is kept whatever its name: the user asked for
// it by name. environ is not modified.
func ScrubEnv(environ, drop, allow []string) []string {
	allowed := make(map[string]bool, len(allow))
	for _, n := range allow {
		allowed[n] = true
	}
	dropped := make(map[string]bool, len(drop))
	for _, n := range drop {
		dropped[n] = true
	}
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !allowed[name] && (dropped[name] || IsSecretName(name)) {
			continue
		}
		out = append(out, kv)
	}
	return out
}
